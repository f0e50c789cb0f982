import { execFile } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { promisify } from 'node:util'

import { createLsp, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost, type TrustLevel } from '@codeseam/lsp-local'

import { createIndexProvider, decodeScipIndex, writeLooseProject, type IndexProviderOptions } from '../src/index.js'

// The real indexer, scip-typescript (a pinned devDependency), run through its bin on a workspace: what the tests
// answer from. It bundles its own TypeScript (5.9.3 for 0.4.0).

const require = createRequire(import.meta.url)
const manifest = require.resolve('@sourcegraph/scip-typescript/package.json')
const { bin, version } = require(manifest) as { bin: string; version: string }

/** The indexer's version, as its package says. */
export const indexerVersion = version

/**
 * Indexes `root` (it needs a tsconfig.json, or `projects`: folders of tsconfig.json files and jsconfig.json paths, as
 * `codeseam index` names them) into a fresh temporary folder; returns the index's path and a disposer. With `files`
 * (`workspaceFiles` of the root), the files of no project are indexed too, as `codeseam index` does (a second run over
 * a tsconfig.json generated in the temporary folder, appended): `loose` names them, `projectDocuments` the documents of
 * the projects' run.
 */
export async function indexWorkspace(
  root: string,
  projects: ReadonlyArray<string> = [],
  options: { readonly files?: ReadonlyMap<string, string> } = {},
): Promise<{ path: string; ms: number; loose: string[]; projectDocuments: Set<string>; dispose: () => Promise<void> }> {
  const folder = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-'))
  const path = nodePath.join(folder, 'index.scip')
  const started = performance.now()
  const run = (output: string, names: ReadonlyArray<string>) =>
    promisify(execFile)(
      process.execPath,
      [nodePath.join(nodePath.dirname(manifest), bin), 'index', '--cwd', root, '--output', output, '--no-progress-bar', ...names],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    )
  await run(path, projects)
  const projectDocuments = new Set(decodeScipIndex(await readFile(path)).documents.map((document) => document.relativePath))
  const { loose, project } =
    options.files === undefined ? { loose: [] } : await writeLooseProject(folder, root, options.files, projectDocuments)
  if (project !== undefined) {
    const output = nodePath.join(folder, 'files-of-no-project.scip')
    // Exit 1 when none of them has an occurrence (nothing written): nothing to add.
    const ran = await run(output, [project]).then(
      () => true,
      () => false,
    )
    if (ran) await appendFile(path, await readFile(output))
  }
  return { path, ms: performance.now() - started, loose, projectDocuments, dispose: () => rm(folder, { recursive: true, force: true }) }
}

/** The two sides of an oracle test on one root: the index provider, and lsp-local's live servers. */
export interface IndexAndLive {
  readonly fromIndex: LspService
  readonly live: LspService
  readonly host: LocalHost
  /** Disposes both sides (the index's file is the caller's). */
  dispose(): Promise<void>
}

/** Serves `index` (a decoded index or a {@link ScipIndex}) of `root` on one `ctx.lsp`, lsp-local's servers on another. */
export async function indexAndLive(root: string, index: IndexProviderOptions['index'], trust: TrustLevel): Promise<IndexAndLive> {
  const fromIndex = createLsp()
  fromIndex.registerProvider(createIndexProvider({ index, root }))
  const host = await createLocalHost()
  const live = createLsp()
  await host.attach(live, [{ root, trust }])
  return {
    fromIndex,
    live,
    host,
    async dispose() {
      await live.dispose()
      await host.dispose()
      await fromIndex.dispose()
    },
  }
}
