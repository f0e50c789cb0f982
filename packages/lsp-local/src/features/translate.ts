// Size: the one module where protocol shapes become seam shapes (every operation's translation side by side, like typescript-language-server's typeConverters.ts); splitting it would scatter that single conversion point.
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'

import {
  isWithin,
  LspError,
  symbolKindFromNumber,
  type LspCompletionItem,
  type LspDiagnostic,
  type LspDocumentSymbol,
  type LspHierarchyItem,
  type LspHover,
  type LspInlayHint,
  type LspLibraryLocation,
  type LspLocation,
  type LspSignatureHelp,
  type LspTextEdit,
  type LspWorkspaceEdit,
  type LspWorkspaceEditOperation,
  type LspWorkspaceSymbol,
} from '@codeseam/lsp'
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  InlayHintKind,
  type AnnotatedTextEdit,
  type CallHierarchyItem,
  type SnippetTextEdit,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type InlayHint,
  type Location,
  type LocationLink,
  type MarkedString,
  type MarkupContent,
  type Range,
  type SignatureHelp,
  type SymbolInformation,
  type TextEdit,
  type TypeHierarchyItem,
  type WorkspaceEdit,
  type WorkspaceSymbol,
} from 'vscode-languageserver-protocol/node'

import type { LibraryRoot, SymbolNaming } from '../languages/record.js'
import type { LocationScope } from './location-scope.js'

/**
 * Every protocol → seam conversion in one place. Server output is untrusted: in read results anything that
 * points outside the root (or is not a `file:` URI) is dropped and counted in `dropped`, never returned; an
 * edit with such a part is refused whole (OUTSIDE_WORKSPACE).
 */
export class Translator {
  dropped = 0
  /** Read-result locations outside the root in a library the language's record names: kept by name, never read. */
  readonly library: LspLibraryLocation[] = []

  constructor(
    private readonly containment: LocationScope,
    private readonly libraries: ReadonlyArray<LibraryRoot> = [],
    /** The language record's naming of outline labels (RFC 0024); none keeps the server's labels. */
    private readonly symbolName?: SymbolNaming,
  ) {}

  /** An outline label as the record names it, with the container it names (a Go method's receiver type). */
  private named(label: string, kind: LspDocumentSymbol['kind']): { name: string; containerName?: string } {
    const named = this.symbolName?.(label, kind)
    if (named === undefined || named.name === '') return { name: label }
    return {
      name: named.name,
      ...(named.containerName === undefined || named.containerName === '' ? {} : { containerName: named.containerName }),
    }
  }

  /** An outside location in a known library root, by its URI's path alone (nothing is read). */
  private libraryOf(uri: string, range: Range): LspLibraryLocation | undefined {
    if (this.libraries.length === 0 || !uri.startsWith('file:')) return undefined
    let path: string
    try {
      path = fileURLToPath(uri)
    } catch {
      return undefined
    }
    const root = this.libraries.find((library) => isWithin(library.path, path))
    return root === undefined ? undefined : { path, range, library: root.library }
  }

  /** A read-result location outside the root: a library location when it is one, else a drop. */
  private outside(uri: string, range: Range): void {
    const library = this.libraryOf(uri, range)
    if (library === undefined) return
    this.dropped--
    if (!this.library.some((l) => l.path === library.path && l.range.start.line === range.start.line)) this.library.push(library)
  }

  /** The contained path of a URI without counting a drop. */
  pathOf(uri: string): string | undefined {
    return this.containment.output(uri)
  }

  private path(uri: string): string | undefined {
    const path = this.containment.output(uri)
    if (path === undefined) this.dropped++
    return path
  }

  /**
   * The contained path of a URI an EDIT touches. Unlike read results, an edit is never trimmed: applying the
   * rest of a rename without its outside part would leave the code broken, so the whole edit is refused.
   */
  private editPath(uri: string): string {
    const path = this.containment.output(uri)
    if (path === undefined) {
      throw new LspError(
        'OUTSIDE_WORKSPACE',
        `the server's edit touches ${uri}, which is outside the workspace root ${this.containment.root} (or not a file); the whole edit was refused rather than applied in part`,
        {
          data: { uri, root: this.containment.root },
        },
      )
    }
    return path
  }

  private malformed(what: string, value: unknown): LspError {
    return new LspError('MALFORMED_RESPONSE', `the server sent a malformed ${what}: ${JSON.stringify(value)?.slice(0, 300)}`)
  }

  locations(result: Location | ReadonlyArray<Location | LocationLink> | null | undefined): LspLocation[] {
    if (result === null || result === undefined) return []
    const list = Array.isArray(result) ? result : [result as Location]
    const out: LspLocation[] = []
    for (const entry of list as ReadonlyArray<Location | LocationLink>) {
      if (entry === null || typeof entry !== 'object') throw this.malformed('location', entry)
      if ('targetUri' in entry) {
        const path = this.path(entry.targetUri)
        if (path === undefined) {
          this.outside(entry.targetUri, entry.targetSelectionRange ?? entry.targetRange)
          continue
        }
        out.push({
          uri: entry.targetUri,
          path,
          range: entry.targetRange,
          targetSelectionRange: entry.targetSelectionRange,
          ...(entry.originSelectionRange === undefined ? {} : { originSelectionRange: entry.originSelectionRange }),
        })
      } else {
        if (typeof entry.uri !== 'string' || entry.range === undefined) throw this.malformed('location', entry)
        const path = this.path(entry.uri)
        if (path === undefined) {
          this.outside(entry.uri, entry.range)
          continue
        }
        out.push({ uri: entry.uri, path, range: entry.range })
      }
    }
    return out
  }

  hover(result: Hover | null | undefined): LspHover | null {
    if (result === null || result === undefined) return null
    const { text, format } = markup(result.contents)
    if (text.trim() === '') return null
    return { contents: text, format, ...(result.range === undefined ? {} : { range: result.range }) }
  }

  signatureHelp(result: SignatureHelp | null | undefined): LspSignatureHelp | null {
    if (result === null || result === undefined || result.signatures.length === 0) return null
    return {
      signatures: result.signatures.map((s) => ({
        label: s.label,
        ...(s.documentation === undefined ? {} : { documentation: markup(s.documentation).text }),
        parameters: (s.parameters ?? []).map((p) => ({
          label: typeof p.label === 'string' ? p.label : s.label.slice(p.label[0], p.label[1]),
          ...(p.documentation === undefined ? {} : { documentation: markup(p.documentation).text }),
        })),
        ...(s.activeParameter === undefined || s.activeParameter === null ? {} : { activeParameter: s.activeParameter }),
      })),
      activeSignature: result.activeSignature ?? 0,
      activeParameter: result.activeParameter ?? 0,
    }
  }

  documentSymbols(result: ReadonlyArray<DocumentSymbol | SymbolInformation> | null | undefined): LspDocumentSymbol[] {
    if (result === null || result === undefined) return []
    const convert = (symbol: DocumentSymbol): LspDocumentSymbol => ({
      ...this.named(symbol.name, symbolKindFromNumber(symbol.kind)),
      kind: symbolKindFromNumber(symbol.kind),
      ...(symbol.detail ? { detail: symbol.detail } : {}),
      range: symbol.range,
      selectionRange: symbol.selectionRange,
      children: (symbol.children ?? []).map(convert),
    })
    return result.map((symbol) =>
      'location' in symbol
        ? {
            ...this.named(symbol.name, symbolKindFromNumber(symbol.kind)),
            kind: symbolKindFromNumber(symbol.kind),
            range: symbol.location.range,
            selectionRange: symbol.location.range,
            children: [],
          }
        : convert(symbol),
    )
  }

  workspaceSymbols(result: ReadonlyArray<SymbolInformation | WorkspaceSymbol> | null | undefined): LspWorkspaceSymbol[] {
    if (result === null || result === undefined) return []
    const out: LspWorkspaceSymbol[] = []
    for (const symbol of result) {
      const location = symbol.location
      const path = this.path(location.uri)
      if (path === undefined) continue
      const range = 'range' in location ? location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
      out.push({
        name: symbol.name,
        kind: symbolKindFromNumber(symbol.kind),
        ...(symbol.containerName ? { containerName: symbol.containerName } : {}),
        location: { uri: location.uri, path, range },
      })
    }
    return out
  }

  /** A hierarchy item with a stable id (same symbol → same id) and the protocol item kept for follow-ups. */
  hierarchyItem(item: CallHierarchyItem | TypeHierarchyItem): LspHierarchyItem | undefined {
    const path = this.path(item.uri)
    if (path === undefined) return undefined
    const id = createHash('sha256')
      .update(JSON.stringify([item.uri, item.name, item.kind, item.selectionRange]))
      .digest('hex')
      .slice(0, 16)
    const kind = symbolKindFromNumber(item.kind)
    return {
      id,
      // Named as the outline names it (JDT LS labels a call hierarchy item `totalArea(List<Shape>) : double`).
      name: this.named(item.name, kind).name,
      kind,
      ...(item.detail ? { detail: item.detail } : {}),
      uri: item.uri,
      path,
      range: item.range,
      selectionRange: item.selectionRange,
      data: item,
    }
  }

  hierarchyItems(items: ReadonlyArray<CallHierarchyItem | TypeHierarchyItem> | null | undefined): LspHierarchyItem[] {
    return (items ?? []).flatMap((item) => this.hierarchyItem(item) ?? [])
  }

  diagnostic(diagnostic: Diagnostic): LspDiagnostic {
    const severities = {
      [DiagnosticSeverity.Error]: 'error',
      [DiagnosticSeverity.Warning]: 'warning',
      [DiagnosticSeverity.Information]: 'information',
      [DiagnosticSeverity.Hint]: 'hint',
    } as const
    const tags = (diagnostic.tags ?? []).flatMap((t) =>
      t === DiagnosticTag.Unnecessary ? ['unnecessary' as const] : t === DiagnosticTag.Deprecated ? ['deprecated' as const] : [],
    )
    const related = (diagnostic.relatedInformation ?? []).flatMap((r) => {
      const path = this.path(r.location.uri)
      return path === undefined ? [] : [{ location: { uri: r.location.uri, path, range: r.location.range }, message: r.message }]
    })
    return {
      range: diagnostic.range,
      severity: severities[diagnostic.severity ?? DiagnosticSeverity.Error] ?? 'error',
      message: typeof diagnostic.message === 'string' ? diagnostic.message : markup(diagnostic.message).text,
      ...(diagnostic.code === undefined ? {} : { code: diagnostic.code }),
      ...(diagnostic.source === undefined ? {} : { source: diagnostic.source }),
      ...(tags.length > 0 ? { tags } : {}),
      ...(related.length > 0 ? { related } : {}),
    }
  }

  inlayHints(hints: ReadonlyArray<InlayHint> | null | undefined): LspInlayHint[] {
    return (hints ?? []).map((hint) => ({
      position: hint.position,
      label:
        typeof hint.label === 'string'
          ? hint.label
          : hint.label.map((part) => {
              const path = part.location === undefined ? undefined : this.path(part.location.uri)
              return {
                value: part.value,
                ...(part.tooltip === undefined ? {} : { tooltip: markup(part.tooltip).text }),
                ...(path === undefined || part.location === undefined
                  ? {}
                  : { location: { uri: part.location.uri, path, range: part.location.range } }),
              }
            }),
      ...(hint.kind === InlayHintKind.Type
        ? { kind: 'type' as const }
        : hint.kind === InlayHintKind.Parameter
          ? { kind: 'parameter' as const }
          : {}),
      ...(hint.paddingLeft === undefined ? {} : { paddingLeft: hint.paddingLeft }),
      ...(hint.paddingRight === undefined ? {} : { paddingRight: hint.paddingRight }),
      ...(hint.textEdits === undefined ? {} : { textEdits: hint.textEdits.map(textEdit) }),
    }))
  }

  completion(result: ReadonlyArray<CompletionItem> | CompletionList | null | undefined): {
    items: LspCompletionItem[]
    isIncomplete: boolean
  } {
    if (result === null || result === undefined) return { items: [], isIncomplete: false }
    const list = Array.isArray(result) ? { items: result as CompletionItem[], isIncomplete: false } : (result as CompletionList)
    const kindNames = Object.fromEntries(
      Object.entries(CompletionItemKind).map(([name, value]) => [value, name.charAt(0).toLowerCase() + name.slice(1)]),
    )
    return {
      isIncomplete: list.isIncomplete,
      items: list.items.map((item) => {
        const insert = item.textEdit !== undefined ? item.textEdit.newText : item.insertText
        return {
          label: item.label,
          ...(item.kind === undefined ? {} : { kind: kindNames[item.kind] ?? 'text' }),
          ...(item.detail ? { detail: item.detail } : {}),
          ...(item.documentation === undefined ? {} : { documentation: markup(item.documentation).text }),
          ...(insert === undefined ? {} : { insertText: insert }),
          ...(item.sortText === undefined ? {} : { sortText: item.sortText }),
        }
      }),
    }
  }

  /**
   * A protocol workspace edit, normalized; `versionOf` supplies the synced version for `changes` entries.
   * Any part outside the root (or not a `file:` URI) is OUTSIDE_WORKSPACE for the whole edit.
   */
  workspaceEdit(edit: WorkspaceEdit | null | undefined, versionOf: (uri: string) => number | null): LspWorkspaceEdit {
    if (edit === null || edit === undefined) return { operations: [] }
    const operations: LspWorkspaceEditOperation[] = []
    if (edit.documentChanges !== undefined) {
      for (const change of edit.documentChanges) {
        if ('textDocument' in change) {
          const path = this.editPath(change.textDocument.uri)
          operations.push({
            type: 'edit',
            uri: change.textDocument.uri,
            path,
            version: change.textDocument.version ?? null,
            edits: change.edits.map(textEdit),
          })
        } else if (change.kind === 'create' || change.kind === 'delete') {
          const path = this.editPath(change.uri)
          operations.push(
            change.kind === 'create'
              ? {
                  type: 'create',
                  uri: change.uri,
                  path,
                  ...(change.options ? { options: change.options } : {}),
                  ...(change.annotationId ? { annotationId: change.annotationId } : {}),
                }
              : {
                  type: 'delete',
                  uri: change.uri,
                  path,
                  ...(change.options ? { options: change.options } : {}),
                  ...(change.annotationId ? { annotationId: change.annotationId } : {}),
                },
          )
        } else if (change.kind === 'rename') {
          const oldPath = this.editPath(change.oldUri)
          const newPath = this.editPath(change.newUri)
          operations.push({
            type: 'rename',
            oldUri: change.oldUri,
            oldPath,
            newUri: change.newUri,
            newPath,
            ...(change.options ? { options: change.options } : {}),
            ...(change.annotationId ? { annotationId: change.annotationId } : {}),
          })
        } else {
          throw this.malformed('workspace edit change', change)
        }
      }
    } else if (edit.changes !== undefined) {
      for (const [uri, edits] of Object.entries(edit.changes)) {
        const path = this.editPath(uri)
        operations.push({ type: 'edit', uri, path, version: versionOf(uri), edits: edits.map(textEdit) })
      }
    }
    const annotations =
      edit.changeAnnotations === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(edit.changeAnnotations).map(([id, a]) => [
              id,
              {
                label: a.label,
                ...(a.description ? { description: a.description } : {}),
                ...(a.needsConfirmation === undefined ? {} : { needsConfirmation: a.needsConfirmation }),
              },
            ]),
          )
    return { operations, ...(annotations === undefined ? {} : { annotations }) }
  }
}

/** Text edits of every flavour (plain, annotated, snippet) as seam edits. */
export function textEdit(edit: TextEdit | AnnotatedTextEdit | SnippetTextEdit): LspTextEdit {
  const annotationId = 'annotationId' in edit && typeof edit.annotationId === 'string' ? { annotationId: edit.annotationId } : {}
  if ('snippet' in edit) return { range: edit.range, newText: edit.snippet.value, snippet: true, ...annotationId }
  return { range: edit.range, newText: edit.newText, ...annotationId }
}

/** MarkupContent, MarkedString or arrays of them as one text and its format. */
export function markup(value: MarkupContent | MarkedString | ReadonlyArray<MarkedString> | string): {
  text: string
  format: 'markdown' | 'plaintext'
} {
  if (typeof value === 'string') return { text: value, format: 'markdown' }
  if (Array.isArray(value)) {
    return {
      text: value
        .map((part) => markup(part as MarkedString).text)
        .filter((t) => t !== '')
        .join('\n\n'),
      format: 'markdown',
    }
  }
  if ('kind' in (value as MarkupContent)) {
    const content = value as MarkupContent
    return { text: content.value, format: content.kind === 'markdown' ? 'markdown' : 'plaintext' }
  }
  const marked = value as { language: string; value: string }
  return { text: `\`\`\`${marked.language}\n${marked.value}\n\`\`\``, format: 'markdown' }
}
