// The large monorepo answered from a precomputed index (issue 52, RFC 0034): `codeseam index` builds a SCIP index of
// the linked tanstack-query with default settings (untrusted: every tsconfig.json under the root is given to
// scip-typescript; the workspace's own pnpm, which its --pnpm-workspaces would run, is not), then `codeseam mcp` with default settings is spawned and asked
// once, as the monorepo scenario's other sides are. Build time, size and the indexer's peak RSS are reported; the
// entry is removed from codeseam's store afterwards.
import { spawn } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'

import { mcpCommand } from '../layers/mcp-layer.js'
import { treeRss } from '../process-memory.js'

export interface MonorepoIndexBuild {
  /** `codeseam index` spawn → exit. */
  readonly ms: number
  /** The indexer's own time, as the sidecar records it. */
  readonly indexMs: number
  readonly bytes: number
  readonly documents: number
  /** Largest RSS of the `codeseam index` process tree (the indexer included), sampled every 250 ms. */
  readonly peakRssBytes: number
  /** The store entry (removed by {@link removeMonorepoIndex}). */
  readonly directory: string
}

/** Runs `codeseam index --json` (default settings: untrusted) on `root`; throws with its stderr when it fails. */
export async function buildMonorepoIndex(root: string): Promise<MonorepoIndexBuild> {
  const cli = mcpCommand()
  if ('missing' in cli) throw new Error(cli.missing)
  const started = performance.now()
  const child = spawn(cli.command, [...cli.args, 'index', '--root', root, '--json', '-q'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let peakRssBytes = 0
  const sample = () => {
    if (child.pid !== undefined) peakRssBytes = Math.max(peakRssBytes, treeRss([child.pid]))
  }
  const timer = setInterval(sample, 250)
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (exit) => resolve(exit))
  }).finally(() => clearInterval(timer))
  const ms = performance.now() - started
  if (code !== 0)
    throw new Error(`codeseam index exited ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' | ')}`)
  const result = JSON.parse(Buffer.concat(out).toString('utf8')) as {
    directory: string
    documents: number
    bytes: number
    indexMs: number
    root: string
  }
  if (result.root !== realpathSync(root)) throw new Error(`codeseam index indexed ${result.root}, not ${root}`)
  return { ms, indexMs: result.indexMs, bytes: result.bytes, documents: result.documents, peakRssBytes, directory: result.directory }
}

/** Removes the bench's entry from codeseam's index store (codeseam prunes a root's older entries, never its newest). */
export async function removeMonorepoIndex(build: MonorepoIndexBuild): Promise<void> {
  await rm(build.directory, { recursive: true, force: true })
}
