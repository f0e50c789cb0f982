import {
  contentHash,
  isWithin,
  LspError,
  pathToUri,
  resultMeta,
  TextLines,
  type LspApplyEditOptions,
  type LspApplyEditResult,
  type LspDiagnostic,
  type LspDocumentSnapshot,
  type LspProvider,
  type LspProviderRequest,
  type LspSpeculationRequest,
  type LspSpeculationResult,
  type LspWorkspace,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'

import { applyTextEdits } from '@codeseam/lsp'

/**
 * A small hand-written in-memory backend for engine unit tests: a workspace whose files live in a Map and
 * whose applier is atomic (everything is computed on a copy, then swapped in), and a provider that reports
 * one error diagnostic per line containing "ERROR".
 */
export class MemoryWorkspace implements LspWorkspace {
  readonly id = 'mem'
  readonly files = new Map<string, string>()
  /** A path whose write fails (simulates a disk error) on the next apply. */
  failWriteOf: string | undefined

  constructor(
    readonly root: string,
    files: Record<string, string>,
  ) {
    for (const [path, text] of Object.entries(files)) this.files.set(`${root}/${path}`, text)
  }

  text(path: string): string | undefined {
    return this.files.get(`${this.root}/${path}`)
  }

  async readFile(path: string): Promise<LspDocumentSnapshot> {
    const absolute = path.startsWith('/') ? path : `${this.root}/${path}`
    if (!isWithin(this.root, absolute)) throw new LspError('OUTSIDE_WORKSPACE', `${path} is outside ${this.root}`)
    const text = this.files.get(absolute)
    if (text === undefined) throw new LspError('NOT_FOUND', `${path} does not exist`)
    return { path: absolute, uri: pathToUri(absolute), text, hash: contentHash(text) }
  }

  async exists(path: string): Promise<boolean> {
    return this.files.has(path.startsWith('/') ? path : `${this.root}/${path}`)
  }

  async applyEdit(edit: LspWorkspaceEdit, options: LspApplyEditOptions = {}): Promise<LspApplyEditResult> {
    for (const [path, hash] of Object.entries(options.expectedHashes ?? {})) {
      const text = this.files.get(path)
      if (text === undefined || contentHash(text) !== hash) throw new LspError('STALE_VERSION', `${path} changed`)
    }
    const next = new Map(this.files)
    const files: { path: string; hashBefore?: string; hashAfter?: string; editCount: number; saved: boolean }[] = []
    const resourceOperations: LspApplyEditResult['resourceOperations'][number][] = []
    for (const op of edit.operations) {
      if (op.type === 'edit') {
        if (op.path === this.failWriteOf) throw new LspError('WRITE_FAILED', `writing ${op.path} failed; nothing was written`)
        const before = next.get(op.path) ?? ''
        const after = applyTextEdits(before, op.edits)
        next.set(op.path, after)
        files.push({
          path: op.path,
          hashBefore: contentHash(before),
          hashAfter: contentHash(after),
          editCount: op.edits.length,
          saved: true,
        })
      } else if (op.type === 'create') {
        next.set(op.path, '')
        resourceOperations.push({ type: 'create', path: op.path })
      } else if (op.type === 'delete') {
        next.delete(op.path)
        resourceOperations.push({ type: 'delete', path: op.path })
      } else {
        next.set(op.newPath, next.get(op.oldPath) ?? '')
        next.delete(op.oldPath)
        resourceOperations.push({ type: 'rename', path: op.oldPath, newPath: op.newPath })
      }
    }
    this.files.clear()
    for (const [path, text] of next) this.files.set(path, text)
    return { files, resourceOperations }
  }
}

/** One error per line that contains "ERROR". */
function errorLines(text: string): LspDiagnostic[] {
  const lines = new TextLines(text)
  const diagnostics: LspDiagnostic[] = []
  for (let line = 0; line < lines.lineCount; line++) {
    const character = lines.lineText(line).indexOf('ERROR')
    if (character >= 0) {
      diagnostics.push({
        range: { start: { line, character }, end: { line, character: character + 5 } },
        severity: 'error',
        message: `bad: ${lines.lineText(line).trim()}`,
        source: 'memory',
      })
    }
  }
  return diagnostics
}

/**
 * Diagnostics: one error per line that contains "ERROR". Reads (hover) answer at once. A speculative check
 * computes the same diagnostics on the texts it is given (disk untouched); `speculations` counts them.
 */
export function memoryProvider(workspace: MemoryWorkspace): LspProvider & { speculations: number } {
  const provider = {
    id: 'memory',
    extensions: { '.ts': 'typescript' },
    operations: ['diagnostics', 'hover'] as const,
    speculations: 0,
    async speculate(request: LspSpeculationRequest): Promise<LspSpeculationResult> {
      provider.speculations += 1
      const texts = new Map(request.documents.map((d) => [d.path, d.text]))
      return {
        files: request.paths.map((path) => ({
          path,
          freshness: 'current' as const,
          diagnostics: errorLines(texts.get(path) ?? workspace.files.get(path) ?? ''),
        })),
      }
    },
    async query(request: LspProviderRequest) {
      if (request.operation === 'hover') {
        return { kind: 'hover', hover: { contents: 'a hover', format: 'plaintext' }, meta: resultMeta('memory') } as never
      }
      if (request.operation !== 'diagnostics' || request.path === undefined) throw new LspError('UNSUPPORTED_OPERATION', request.operation)
      const snapshot = await workspace.readFile(request.path)
      return {
        kind: 'diagnostics',
        files: [{ uri: snapshot.uri, path: snapshot.path, freshness: 'current', diagnostics: errorLines(snapshot.text) }],
        coverage: { analysed: [snapshot.path], complete: true },
        meta: resultMeta('memory'),
      } as never
    },
  }
  return provider as LspProvider & { speculations: number }
}
