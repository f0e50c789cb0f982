import { createHash } from 'node:crypto'

import {
  BoundedCache,
  LspError,
  type LspCodeAction,
  type LspDocumentSnapshot,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultMeta,
  type LspTextEdit,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'

import type { LocalWorkspace } from '../../workspace/workspace.js'
import type { Companion } from '../companion.js'
import { ruffSettingsFor } from './config.js'
import { fixEdits, fixedText, isSafeFix, minimalEdit, rangeOf, toLspDiagnostic } from './fixes.js'
import { ruffCheck, ruffFormat, ruffWorkspace } from './wasm.js'

interface ListedAction {
  readonly path: string
  readonly hash: string
  readonly title: string
  readonly edit: LspWorkspaceEdit
}

/**
 * ruff in process (its WebAssembly build): formatting, organize imports, fix-all, quick fixes and lint
 * diagnostics for Python files, with the configuration discovered the way ruff discovers it (config.ts).
 */
export class RuffCompanion implements Companion {
  readonly id = 'ruff'
  /** Actions listed, by id: their edits are computed when listed and bound to the text they were computed on. */
  private readonly actions = new BoundedCache<string, ListedAction>({ entries: 1_000, size: Number.POSITIVE_INFINITY })

  constructor(private readonly workspaceFor: (root: string) => LocalWorkspace) {}

  async query(request: LspProviderRequest<LspQueryRequest>, signal: AbortSignal): Promise<LspQueryResult> {
    const workspace = this.workspaceFor(request.root)
    if (!('path' in request) || typeof request.path !== 'string') {
      throw new LspError('INVALID_ARGUMENT', `ruff answers ${request.operation} file by file`)
    }
    const path = request.file?.root === workspace.root ? request.file.path : workspace.containment.input(request.path)
    const document = request.snapshot?.path === path ? request.snapshot : await workspace.readFile(path, signal)
    const settings = await ruffSettingsFor(path, { root: workspace.root, readFile: (file) => workspace.readFile(file, signal) })
    const source = settings.source ?? "ruff's defaults"
    const meta: LspResultMeta = {
      providerId: 'ruff',
      status: 'ready',
      warm: true,
      truncated: false,
      elapsedMs: 0,
      contentHash: document.hash,
    }
    switch (request.operation) {
      case 'format': {
        if (request.range !== undefined) {
          throw new LspError(
            'UNSUPPORTED_OPERATION',
            'ruff formats whole files only (its WebAssembly build has no range formatting): format the whole file',
            {
              data: { operation: 'format' },
            },
          )
        }
        const formatted = ruffFormat(ruffWorkspace(settings.options, source), document.text, path)
        return { kind: 'workspaceEdit', edit: editOf(document, minimalEdit(document.text, formatted)), meta }
      }
      case 'diagnostics': {
        const diagnostics = ruffCheck(ruffWorkspace(settings.options, source), document.text).map(toLspDiagnostic)
        return {
          kind: 'diagnostics',
          files: [{ uri: document.uri, path, freshness: 'current', diagnostics }],
          coverage: { analysed: [path], eligible: 1, complete: true },
          meta,
        }
      }
      case 'codeActions':
        return { kind: 'codeActions', actions: this.list(document, path, settings.options, source, request), meta }
      case 'resolveCodeAction': {
        const listed = this.actions.get(request.actionId)
        if (listed === undefined) {
          throw new LspError('NOT_FOUND', `code action "${request.actionId}" is unknown or expired; list the actions again`)
        }
        if (listed.path !== path)
          throw new LspError('INVALID_ARGUMENT', `code action ${request.actionId} belongs to ${listed.path}, not ${path}`)
        if (listed.hash !== document.hash) {
          throw new LspError('STALE_VERSION', `${path} changed since its code actions were listed; list them again`)
        }
        return { kind: 'codeActionResolution', title: listed.title, edit: listed.edit, meta }
      }
      default:
        throw new LspError('UNSUPPORTED_OPERATION', `ruff does not answer ${request.operation}`, { data: { operation: request.operation } })
    }
  }

  /** Quick fixes for ruff's diagnostics in the range, organize imports and fix-all, filtered by `only`. */
  private list(
    document: LspDocumentSnapshot,
    path: string,
    options: Readonly<Record<string, unknown>>,
    source: string,
    request: Extract<LspQueryRequest, { operation: 'codeActions' }>,
  ): LspCodeAction[] {
    const wanted = (kind: string) => request.only === undefined || request.only.some((o) => kind === o || kind.startsWith(`${o}.`))
    const lint = ruffWorkspace(options, source)
    const actions: LspCodeAction[] = []
    const add = (title: string, kind: string, edits: ReadonlyArray<LspTextEdit>) => {
      // Derived from what the action is and the document's content, as the servers' action ids are.
      const occurrence = actions.filter((a) => a.title === title && a.kind === kind).length
      const id = `ruff-${createHash('sha256').update(`${path}\0${document.hash}\0${title}\0${kind}\0${occurrence}`).digest('hex').slice(0, 20)}`
      this.actions.set(id, { path, hash: document.hash, title, edit: editOf(document, ...edits) }, 1)
      actions.push({ id, title, kind, hasEdit: true, hasCommand: false })
    }
    if (wanted('quickfix')) {
      for (const d of ruffCheck(lint, document.text)) {
        const range = rangeOf(d.start_location, d.end_location)
        if (d.fix === null || range.start.line > request.range.end.line || range.end.line < request.range.start.line) continue
        add(`Ruff (${d.code ?? 'fix'}): ${d.fix.message ?? d.message}`, 'quickfix', fixEdits(d.fix))
      }
    }
    if (wanted('source.organizeImports')) {
      // Organize imports runs ruff's import sorting (I001) whatever rules the configuration selects, with its isort settings.
      const { lint: lintTable, ...topLevel } = options
      const table = typeof lintTable === 'object' && lintTable !== null ? (lintTable as Record<string, unknown>) : {}
      const sorting = ruffWorkspace({ ...withoutSelection(topLevel), lint: { ...withoutSelection(table), select: ['I001'] } }, source)
      const sorted = minimalEdit(
        document.text,
        fixedText(sorting, document.text, (d) => d.code === 'I001'),
      )
      if (sorted !== undefined) add('Ruff: Organize imports', 'source.organizeImports', [sorted])
    }
    if (wanted('source.fixAll')) {
      const fixed = minimalEdit(
        document.text,
        fixedText(lint, document.text, (d) => isSafeFix(d, path)),
      )
      if (fixed !== undefined) add('Ruff: Fix all auto-fixable problems', 'source.fixAll', [fixed])
    }
    return actions
  }
}

/** Settings without their rule selection (kept: isort's and the other per-linter settings). */
function withoutSelection(settings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { select: _s, 'extend-select': _e, ignore: _i, 'extend-ignore': _x, fixable: _f, unfixable: _u, ...rest } = settings
  return rest
}

/** A workspace edit of one document (no operations when there is nothing to change). */
function editOf(document: LspDocumentSnapshot, ...edits: ReadonlyArray<LspTextEdit | undefined>): LspWorkspaceEdit {
  const present = edits.filter((e): e is LspTextEdit => e !== undefined)
  return {
    operations: present.length === 0 ? [] : [{ type: 'edit', uri: document.uri, path: document.path, version: null, edits: present }],
  }
}
