import { LspError } from '@codeseam/lsp'
import type { Diagnostic, Workspace } from '@astral-sh/ruff-wasm-nodejs'

import { ownPackageRequire } from '../../profile/own-packages.js'

/** The part of ruff's WebAssembly module codeseam uses. */
interface RuffModule {
  readonly Workspace: (new (options: unknown, encoding: number) => Workspace) & { version(): string }
  readonly PositionEncoding: { readonly Utf16: number }
}

let loaded: RuffModule | undefined

/**
 * ruff's WebAssembly build, loaded on first use and once per process. It is resolved from lsp-local's own
 * folder (see own-packages.ts) and never bundled: its JS reads the `.wasm` file beside itself.
 */
function ruffModule(): RuffModule {
  if (loaded !== undefined) return loaded
  try {
    loaded = ownPackageRequire()('@astral-sh/ruff-wasm-nodejs') as RuffModule
  } catch (error) {
    throw new LspError('UNAVAILABLE', `ruff (@astral-sh/ruff-wasm-nodejs) cannot be loaded: ${(error as Error).message}`, {
      cause: error,
    })
  }
  return loaded
}

/** ruff's version, e.g. `0.17.4`. */
export function ruffVersion(): string {
  return ruffModule().Workspace.version()
}

/** Workspaces by their options (JSON), a few at a time: a root rarely has more than a handful of configurations. */
const workspaces = new Map<string, Workspace>()
const maxWorkspaces = 16

/**
 * A ruff workspace for these settings (ruff's own option keys, as in `ruff.toml`), positions in UTF-16 code
 * units like LSP's. Settings ruff rejects fail with INVALID_ARGUMENT naming `source` (the config file).
 */
export function ruffWorkspace(options: Readonly<Record<string, unknown>>, source: string): Workspace {
  const key = JSON.stringify(options)
  const known = workspaces.get(key)
  if (known !== undefined) return known
  const ruff = ruffModule()
  let workspace: Workspace
  try {
    workspace = new ruff.Workspace(options, ruff.PositionEncoding.Utf16)
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `ruff rejects the settings of ${source}: ${messageOf(error)}`, {
      cause: error,
      data: { path: source },
    })
  }
  workspaces.set(key, workspace)
  while (workspaces.size > maxWorkspaces) {
    const oldest = workspaces.keys().next().value
    if (oldest === undefined) break
    workspaces.get(oldest)?.free()
    workspaces.delete(oldest)
  }
  return workspace
}

/** ruff's lint diagnostics of a text (rows and columns 1-based; columns in UTF-16 code units). */
export function ruffCheck(workspace: Workspace, text: string): ReadonlyArray<Diagnostic> {
  try {
    return workspace.check(text) as Diagnostic[]
  } catch (error) {
    throw new LspError('SERVER_ERROR', `ruff failed to check the file: ${messageOf(error)}`, { cause: error })
  }
}

/** The text ruff's formatter makes of `text`; a file that does not parse fails with INVALID_ARGUMENT. */
export function ruffFormat(workspace: Workspace, text: string, path: string): string {
  try {
    return workspace.format(text)
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `ruff cannot format ${path}: ${messageOf(error)}`, { cause: error, data: { path } })
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^(Error: )+/, '')
}

export type { Diagnostic as RuffDiagnostic }
