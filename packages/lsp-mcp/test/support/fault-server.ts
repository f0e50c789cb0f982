import { readFileSync, watch } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { withDeadline } from './mcp-process.js'

/**
 * lsp-local's fault-injecting fixture server (a real LSP process) configured as an extra profile for `.slow`
 * files: it answers hover only after ten minutes unless the request is cancelled, and logs every message it
 * receives, so a test can see a request arrive and its `$/cancelRequest` follow.
 */

const faultServer = fileURLToPath(new URL('../../../lsp-local/test/fault-server/server.mjs', import.meta.url))

// Log entries are free-form JSON lines written by the fault server.
export type FaultLogEntry = { readonly event: string; readonly method?: string; readonly [field: string]: unknown }

/** Writes the config and a `notes.slow` file under `root`; returns the config path and the log path. */
export async function slowHoverSetup(root: string): Promise<{ config: string; log: string }> {
  const dir = nodePath.join(root, 'fault-log')
  await mkdir(dir, { recursive: true })
  const log = nodePath.join(dir, `fault-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`)
  const config = nodePath.join(dir, `codeseam-${nodePath.basename(log, '.jsonl')}.json`)
  await writeFile(
    config,
    JSON.stringify({
      profiles: [
        {
          id: 'slowpoke',
          command: process.execPath,
          args: [faultServer, '--log', log, '--scenario', 'slow', '--method', 'textDocument/hover', '--delay-ms', '600000'],
          extensions: { '.slow': 'slowlang' },
          // The fault server runs nothing a workspace chooses: an unknown server's profile must say so.
          untrusted: {},
        },
      ],
    }),
  )
  await writeFile(nodePath.join(root, 'notes.slow'), 'hello slow world\n')
  return { config, log }
}

function entries(file: string): FaultLogEntry[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as FaultLogEntry)
  } catch {
    return []
  }
}

/** Resolves with the first log entry matching, woken by file-system events, bounded by a deadline. */
export function waitForLog(file: string, matches: (entry: FaultLogEntry) => boolean, what: string): Promise<FaultLogEntry> {
  let watcher: ReturnType<typeof watch> | undefined
  const found = new Promise<FaultLogEntry>((resolve) => {
    const check = () => {
      const hit = entries(file).find(matches)
      if (hit !== undefined) resolve(hit)
    }
    watcher = watch(nodePath.dirname(file), check)
    check()
  })
  return withDeadline(found, 60_000, what).finally(() => watcher?.close())
}
