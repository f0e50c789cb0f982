import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { promisify } from 'node:util'

// The real indexer, scip-typescript (a pinned devDependency), run through its bin on a workspace: what the tests
// answer from. It bundles its own TypeScript (5.9.3 for 0.4.0).

const require = createRequire(import.meta.url)
const manifest = require.resolve('@sourcegraph/scip-typescript/package.json')
const { bin, version } = require(manifest) as { bin: string; version: string }

/** The indexer's version, as its package says. */
export const indexerVersion = version

/**
 * Indexes `root` (it needs a tsconfig.json, or `projects`: folders of tsconfig.json files and jsconfig.json paths, as
 * `codeseam index` names them) into a fresh temporary folder; returns the index's path and a disposer.
 */
export async function indexWorkspace(
  root: string,
  projects: ReadonlyArray<string> = [],
): Promise<{ path: string; ms: number; dispose: () => Promise<void> }> {
  const folder = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-'))
  const path = nodePath.join(folder, 'index.scip')
  const started = performance.now()
  await promisify(execFile)(
    process.execPath,
    [nodePath.join(nodePath.dirname(manifest), bin), 'index', '--cwd', root, '--output', path, '--no-progress-bar', ...projects],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  return { path, ms: performance.now() - started, dispose: () => rm(folder, { recursive: true, force: true }) }
}
