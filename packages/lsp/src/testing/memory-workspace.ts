import * as nodePath from 'node:path'

import { LspError } from '../errors.js'
import { contentHash } from '../hash.js'
import { pathToUri, resolveInRoot } from '../paths.js'
import type { LspApplyEditResult, LspWorkspace } from '../provider.js'
import { applyTextEdits } from '../text-edits.js'

/** An in-memory workspace: files live in a map. For unit tests of tools and for harnesses without a disk. */
export interface MemoryWorkspace extends LspWorkspace {
  /** Current files, by absolute path. */
  readonly files: Map<string, string>
}

/** Creates an in-memory workspace at `root` (an absolute path) holding `files` (relative path → text). */
export function createMemoryWorkspace(options: { id: string; root: string; files: Record<string, string> }): MemoryWorkspace {
  const root = nodePath.normalize(options.root)
  const files = new Map(Object.entries(options.files).map(([relative, text]) => [nodePath.join(root, relative), text]))
  return {
    id: options.id,
    root,
    files,
    async readFile(path) {
      const absolute = resolveInRoot(root, path)
      const text = files.get(absolute)
      if (text === undefined) throw new LspError('NOT_FOUND', `file ${path} does not exist`)
      return { path: absolute, uri: pathToUri(absolute), text, hash: contentHash(text) }
    },
    async exists(path) {
      try {
        return files.has(resolveInRoot(root, path))
      } catch {
        return false
      }
    },
    async applyEdit(edit, applyOptions = {}) {
      // Compute everything first; commit only when every step succeeded (atomic).
      const next = new Map(files)
      const result: {
        files: LspApplyEditResult['files'][number][]
        resourceOperations: LspApplyEditResult['resourceOperations'][number][]
      } = { files: [], resourceOperations: [] }
      for (const [path, hash] of Object.entries(applyOptions.expectedHashes ?? {})) {
        const current = next.get(resolveInRoot(root, path))
        if (current === undefined || contentHash(current) !== hash)
          throw new LspError('STALE_VERSION', `${path} changed since the edit was computed`)
      }
      for (const op of edit.operations) {
        if (op.type === 'edit') {
          const path = resolveInRoot(root, op.path)
          const before = next.get(path)
          if (before === undefined) throw new LspError('NOT_FOUND', `cannot edit ${op.path}: it does not exist`)
          const after = applyTextEdits(before, op.edits)
          next.set(path, after)
          result.files.push({
            path,
            hashBefore: contentHash(before),
            hashAfter: contentHash(after),
            editCount: op.edits.length,
            saved: true,
          })
        } else if (op.type === 'create') {
          const path = resolveInRoot(root, op.path)
          if (next.has(path) && !op.options?.overwrite) {
            if (op.options?.ignoreIfExists) continue
            throw new LspError('WRITE_FAILED', `cannot create ${op.path}: it exists`)
          }
          next.set(path, '')
          result.resourceOperations.push({ type: 'create', path })
        } else if (op.type === 'rename') {
          const from = resolveInRoot(root, op.oldPath)
          const to = resolveInRoot(root, op.newPath)
          const text = next.get(from)
          if (text === undefined) throw new LspError('NOT_FOUND', `cannot rename ${op.oldPath}: it does not exist`)
          if (next.has(to) && !op.options?.overwrite) {
            if (op.options?.ignoreIfExists) continue
            throw new LspError('WRITE_FAILED', `cannot rename onto ${op.newPath}: it exists`)
          }
          next.delete(from)
          next.set(to, text)
          result.resourceOperations.push({ type: 'rename', path: from, newPath: to })
        } else {
          const path = resolveInRoot(root, op.path)
          if (!next.has(path)) {
            if (op.options?.ignoreIfNotExists) continue
            throw new LspError('NOT_FOUND', `cannot delete ${op.path}: it does not exist`)
          }
          next.delete(path)
          result.resourceOperations.push({ type: 'delete', path })
        }
      }
      files.clear()
      for (const [path, text] of next) files.set(path, text)
      return result
    },
  }
}
