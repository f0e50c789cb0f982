import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

/*
 * The order terraform-ls must be told of module folders in (v0.39). It runs the jobs of an open folder on one worker
 * and those of a closed folder on another, and a job finds a module "already parsed" once another job marked it
 * loading: a module called by a folder opened before it (`examples/complete` calling `../../`) is parsed on the
 * closed folders' worker, and once it is opened in turn, its metadata (its variables) may be read on the other worker
 * before that parse ends, from nothing. terraform-ls keeps that empty metadata: the callers' uses of its variables
 * are never found (references of a root module's variables came back `[]`, on a loaded machine, as long as the
 * server ran). Opening every called folder before its callers keeps each folder's jobs on one worker.
 */

/** A module block's `source = "../../modules/object"` (a local folder: `./` or `../`). */
const localSource = /^\s*source\s*=\s*"(\.\.?(?:\/[^"]*)?)"/gm

/** The folders a module's files call as local modules (resolved, the folder itself left out). */
export function localModuleCalls(folder: string, texts: ReadonlyArray<string>): string[] {
  const called = new Set<string>()
  for (const text of texts) {
    for (const match of text.matchAll(localSource)) {
      const target = nodePath.resolve(folder, match[1] ?? '.')
      if (target !== folder) called.add(target)
    }
  }
  return [...called]
}

const depth = (folder: string) => folder.split(nodePath.sep).length

/**
 * Folders with every folder a folder calls before it (a call cycle is broken where it closes); otherwise the
 * shallower first (callers are most often below what they call: `examples/*`), then in path order.
 */
export function calleesFirst(folders: ReadonlyArray<string>, calls: ReadonlyMap<string, ReadonlyArray<string>>): string[] {
  const known = new Set(folders)
  const ordered: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (folder: string) => {
    if (state.has(folder)) return
    state.set(folder, 'visiting')
    for (const callee of [...(calls.get(folder) ?? [])].sort(byDepthThenPath)) if (known.has(callee)) visit(callee)
    state.set(folder, 'done')
    ordered.push(folder)
  }
  for (const folder of [...folders].sort(byDepthThenPath)) visit(folder)
  return ordered
}

function byDepthThenPath(a: string, b: string): number {
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0)
}

/**
 * The local module calls of each folder, from its `.tf` files (at most `maxFiles` read, none after `deadline`: a
 * folder not read has no known calls). A file that cannot be read is left out.
 */
export async function moduleCallsOf(
  filesByFolder: ReadonlyMap<string, ReadonlyArray<string>>,
  deadline: number,
  maxFiles = 5_000,
): Promise<Map<string, string[]>> {
  const calls = new Map<string, string[]>()
  let read = 0
  for (const [folder, files] of filesByFolder) {
    if (read + files.length > maxFiles || Date.now() >= deadline) break
    read += files.length
    const texts = await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')))
    calls.set(folder, localModuleCalls(folder, texts))
  }
  return calls
}
