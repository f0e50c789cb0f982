import { displayPath, LspError, resolveInRoot, type LspDocumentSnapshot, type LspWorkspace } from '@codeseam/lsp'

import type { BuiltPreview } from './preview.js'

/**
 * The checks that the files a transaction writes are still what it saw: the caller's expected hashes, checked
 * after the preview, and every previewed file's content, re-checked just before writing (STALE_VERSION).
 */

/** Every file named in `expected` must have that hash now (the previewed content, or the file as it is). */
export async function checkExpectedHashes(
  workspace: LspWorkspace,
  built: BuiltPreview,
  expected: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<void> {
  for (const [path, hash] of Object.entries(expected)) {
    const absolute = resolveInRoot(workspace.root, path)
    const actual = built.basis.get(absolute)?.hash ?? (await workspace.readFile(absolute, signal)).hash
    if (!sameHash(actual, hash)) {
      throw new LspError(
        'STALE_VERSION',
        `${displayPath(workspace.root, absolute)} has changed: expected hash ${hash.slice(0, 12)}…, it is now ${actual.slice(0, 12)}…; re-read it and retry; nothing was written`,
        { data: { path: displayPath(workspace.root, absolute), expected: hash, actual } },
      )
    }
  }
}

/** Every previewed file must still have the content it was previewed with; files to create must still be absent. */
export async function recheck(workspace: LspWorkspace, built: BuiltPreview, signal: AbortSignal): Promise<void> {
  for (const op of built.preview.resourceOperations) {
    if (op.type !== 'create' || op.overwrite === true || op.ignoreIfExists === true) continue
    if (await workspace.exists(resolveInRoot(workspace.root, op.path))) {
      throw new LspError(
        'STALE_VERSION',
        `${op.path} was created by someone else after the preview was made; nothing was written; run the tool again`,
        {
          data: { path: op.path },
        },
      )
    }
  }
  for (const [path, snapshot] of built.basis) {
    let now: LspDocumentSnapshot | undefined
    try {
      now = await workspace.readFile(path, signal)
    } catch {
      now = undefined
    }
    if (now?.hash !== snapshot.hash) {
      const where = displayPath(workspace.root, path)
      throw new LspError(
        'STALE_VERSION',
        `${where} changed after the preview was made${now === undefined ? ' (it can no longer be read)' : ''}; nothing was written; run the tool again`,
        {
          data: { path: where, expected: snapshot.hash, ...(now === undefined ? {} : { actual: now.hash }) },
        },
      )
    }
  }
}

/**
 * Whether an expected hash names this content: the whole sha-256, or its first 12 or more hex digits (what a
 * receipt's text prints: a person copies that from a terminal).
 */
export function sameHash(actual: string, expected: string): boolean {
  const given = expected.trim().toLowerCase()
  return actual === given || (given.length >= 12 && /^[0-9a-f]+$/.test(given) && actual.startsWith(given))
}
