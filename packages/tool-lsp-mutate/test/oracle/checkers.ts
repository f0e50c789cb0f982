import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

/**
 * Each language's own command-line checker, run over a copy of a workspace: the oracle the edit receipts are
 * judged against (issue 29). Errors only; paths workspace-relative with forward slashes, lines 1-based.
 */

export type CheckerLanguage = 'typescript' | 'python' | 'go' | 'rust'

/** One error the checker reported. */
export interface CheckerError {
  readonly file: string
  readonly line: number
  readonly message: string
  readonly code?: string
}

/** A checker's run: its errors, or why it could not run (with the command that installs it). */
export type CheckerRun =
  | { readonly available: true; readonly command: string; readonly errors: ReadonlyArray<CheckerError> }
  | { readonly available: false; readonly reason: string }

const require = createRequire(import.meta.url)

function relative(root: string, file: string): string {
  const absolute = nodePath.isAbsolute(file) ? file : nodePath.join(root, file)
  return nodePath.relative(root, absolute).split(nodePath.sep).join('/')
}

/** The native TypeScript 7 compiler lsp-local depends on (`typescript-native`, the compiler its server runs). */
function typescriptCompiler(): string | undefined {
  try {
    const local = createRequire(require.resolve('@codeseam/lsp-local/package.json'))
    const tsc = nodePath.join(nodePath.dirname(local.resolve('typescript-native/package.json')), 'bin', 'tsc')
    return existsSync(tsc) ? tsc : undefined
  } catch {
    return undefined
  }
}

function pyrightCli(): string | undefined {
  try {
    const local = createRequire(require.resolve('@codeseam/lsp-local/package.json'))
    return nodePath.join(nodePath.dirname(local.resolve('pyright/package.json')), 'index.js')
  } catch {
    return undefined
  }
}

function run(command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 256 * 1024 * 1024 })
  if (result.error !== undefined) throw result.error
  return `${result.stdout}\n${result.stderr}`
}

const tscLine = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/
const goLine = /^(?:vet: )?(\S+?\.go):(\d+)(?::(\d+))?: (.*)$/

function typescript(root: string, tsconfig: string): CheckerRun {
  const tsc = typescriptCompiler()
  if (tsc === undefined)
    return {
      available: false,
      reason: 'the native TypeScript compiler is missing: pnpm install (typescript-native, npm:typescript@7, in @codeseam/lsp-local)',
    }
  // Build mode walks the solution's project references; --force so a tsbuildinfo never skips a project.
  const args = [tsc, '-b', tsconfig, '--force', '--noEmit', '--pretty', 'false']
  const errors: CheckerError[] = []
  for (const line of run(process.execPath, args, root).split('\n')) {
    const m = tscLine.exec(line.trim())
    if (m !== null) errors.push({ file: relative(root, m[1]!), line: Number(m[2]), code: m[4]!, message: m[5]! })
  }
  return { available: true, command: `tsc ${args.slice(1).join(' ')}`, errors }
}

interface PyrightJson {
  readonly generalDiagnostics?: ReadonlyArray<{
    file: string
    severity: string
    message: string
    rule?: string
    range?: { start: { line: number } }
  }>
}

function python(root: string, paths: ReadonlyArray<string> | undefined): CheckerRun {
  const cli = pyrightCli()
  if (cli === undefined || !existsSync(cli))
    return { available: false, reason: 'the pyright CLI is missing: pnpm install (pyright in @codeseam/lsp-local)' }
  const result = spawnSync(process.execPath, [cli, '--outputjson', ...(paths ?? ['-p', root])], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 256 * 1024 * 1024,
  })
  const parsed = JSON.parse(result.stdout) as PyrightJson
  const errors = (parsed.generalDiagnostics ?? [])
    .filter((d) => d.severity === 'error')
    .map((d) => ({
      file: relative(root, d.file),
      line: (d.range?.start.line ?? 0) + 1,
      message: d.message,
      ...(d.rule === undefined ? {} : { code: d.rule }),
    }))
  return { available: true, command: `pyright --outputjson ${(paths ?? ['-p', '.']).join(' ')}`, errors }
}

function go(root: string): CheckerRun {
  if (spawnSync('go', ['version']).status !== 0)
    return { available: false, reason: 'go is missing: install Go (https://go.dev/dl) so `go` is on PATH' }
  const errors: CheckerError[] = []
  const seen = new Set<string>()
  for (const args of [
    ['build', './...'],
    ['vet', './...'],
  ]) {
    for (const line of run('go', args, root).split('\n')) {
      const m = goLine.exec(line.trim())
      if (m === null) continue
      const error = { file: relative(root, m[1]!), line: Number(m[2]), message: m[4]! }
      const key = `${error.file}:${error.line}:${error.message}`
      if (seen.has(key)) continue
      seen.add(key)
      errors.push(error)
    }
  }
  return { available: true, command: 'go build ./... && go vet ./...', errors }
}

interface CargoMessage {
  readonly reason: string
  readonly message?: {
    level: string
    message: string
    code?: { code: string } | null
    spans: ReadonlyArray<{ file_name: string; line_start: number; is_primary: boolean }>
  }
}

function rust(root: string): CheckerRun {
  if (spawnSync('cargo', ['--version']).status !== 0)
    return { available: false, reason: 'cargo is missing: curl https://sh.rustup.rs -sSf | sh' }
  const target = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-oracle-cargo-target-'))
  try {
    const out = run('cargo', ['check', '--workspace', '--all-targets', '--keep-going', '--message-format=json', '--quiet'], root, {
      ...process.env,
      CARGO_TARGET_DIR: target,
    })
    const errors: CheckerError[] = []
    for (const line of out.split('\n')) {
      if (!line.startsWith('{')) continue
      const message = (JSON.parse(line) as CargoMessage).message
      if (message === undefined || message.level !== 'error') continue
      const span = message.spans.find((s) => s.is_primary) ?? message.spans[0]
      errors.push({
        file: span === undefined ? '' : relative(root, span.file_name),
        line: span?.line_start ?? 0,
        message: message.message,
        ...(message.code?.code === undefined ? {} : { code: message.code.code }),
      })
    }
    return { available: true, command: 'cargo check --workspace --all-targets --keep-going --message-format=json', errors }
  } finally {
    rmSync(target, { recursive: true, force: true })
  }
}

/** Where a checker looks: TypeScript's solution tsconfig (default the root's), pyright's paths (default its project). */
export interface CheckerOptions {
  /**
   * TypeScript: one project (root-relative), checked alone with `tsc -p` through a temporary config outside the
   * root that extends it without `types`, composite or emit — for a monorepo package whose dependencies are not
   * installed (its solution build stops at the missing `@types/node`). Default: `tsc -b tsconfig.json`.
   */
  readonly project?: string
  readonly paths?: ReadonlyArray<string>
}

function typescriptProject(root: string, project: string): CheckerRun {
  const tsc = typescriptCompiler()
  if (tsc === undefined)
    return {
      available: false,
      reason: 'the native TypeScript compiler is missing: pnpm install (typescript-native, npm:typescript@7, in @codeseam/lsp-local)',
    }
  const folder = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-oracle-tsconfig-'))
  try {
    const config = nodePath.join(folder, 'tsconfig.json')
    const off = {
      types: [],
      composite: false,
      incremental: false,
      noEmit: true,
      declaration: false,
      declarationMap: false,
      emitDeclarationOnly: false,
    }
    writeFileSync(config, JSON.stringify({ extends: nodePath.join(root, project), compilerOptions: off }))
    const args = [tsc, '-p', config, '--pretty', 'false']
    const errors: CheckerError[] = []
    for (const line of run(process.execPath, args, root).split('\n')) {
      const m = tscLine.exec(line.trim())
      if (m !== null) errors.push({ file: relative(root, m[1]!), line: Number(m[2]), code: m[4]!, message: m[5]! })
    }
    return { available: true, command: `tsc -p (${project} without types, composite or emit)`, errors }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Runs the language's checker over `root`. */
export function runChecker(language: CheckerLanguage, root: string, options: CheckerOptions = {}): CheckerRun {
  switch (language) {
    case 'typescript':
      return options.project === undefined ? typescript(root, 'tsconfig.json') : typescriptProject(root, options.project)
    case 'python':
      return python(root, options.paths)
    case 'go':
      return go(root)
    case 'rust':
      return rust(root)
  }
}

/**
 * The errors of `after` that `before` does not have, matched by file, code and message (a multiset, so the
 * edit's line shifts do not count as new errors). The message is compared with the old and new names made
 * equal, so a renamed symbol's own old errors are not new.
 */
export function newErrors(
  before: ReadonlyArray<CheckerError>,
  after: ReadonlyArray<CheckerError>,
  rename?: { from: string; to: string },
): CheckerError[] {
  const key = (e: CheckerError): string => {
    const message = rename === undefined ? e.message : e.message.split(rename.to).join(rename.from)
    return `${e.file}\u0000${e.code ?? ''}\u0000${message}`
  }
  const counts = new Map<string, number>()
  for (const e of before) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1)
  const added: CheckerError[] = []
  for (const e of after) {
    const left = counts.get(key(e)) ?? 0
    if (left > 0) counts.set(key(e), left - 1)
    else added.push(e)
  }
  return added
}

/** A checker that cannot run: skip with its reason, but fail under CI=true. */
export function unavailable(run: CheckerRun): string | undefined {
  if (run.available) return undefined
  if (process.env['CI'] === 'true') throw new Error(`checker unavailable under CI: ${run.reason}`)
  return run.reason
}
