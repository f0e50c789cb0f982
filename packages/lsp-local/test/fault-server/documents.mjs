// The fault server's honest half: it keeps the documents the client synced and answers from their text,
// so a correct answer can be told apart from an empty or invented one.
//
// Like a real server it knows the files of its workspace, not only the open ones: a file on disk under the
// root with one of the server's extensions counts, and an open document's synced text wins over its disk
// text. The "language" is any text: identifiers are words; a word right after a declaration keyword declares it.
// Definition = the declaration of the word under the cursor; references = every whole-word occurrence in
// the open documents; FIXME marks a warning diagnostic.
import { readdirSync, readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import protocol from 'vscode-languageserver-protocol/node'

const { DiagnosticSeverity, SymbolKind } = protocol

const identifier = /[A-Za-z_$][\w$]*/g
const declaration = /\b(function|class|interface|const|let|var|type|def)\s+([A-Za-z_$][\w$]*)/g
/** @type {Record<string, import('vscode-languageserver-protocol/node').SymbolKind>} */
const symbolKindByKeyword = {
  function: SymbolKind.Function,
  def: SymbolKind.Function,
  class: SymbolKind.Class,
  interface: SymbolKind.Interface,
  type: SymbolKind.TypeParameter,
  const: SymbolKind.Constant,
  let: SymbolKind.Variable,
  var: SymbolKind.Variable,
}

/**
 * @typedef {import('vscode-languageserver-protocol/node').Position} Position
 * @typedef {import('vscode-languageserver-protocol/node').Range} Range
 * @typedef {import('vscode-languageserver-protocol/node').Location} Location
 * @typedef {import('vscode-languageserver-protocol/node').Diagnostic} Diagnostic
 * @typedef {import('vscode-languageserver-protocol/node').TextEdit} TextEdit
 * @typedef {import('vscode-languageserver-protocol/node').DocumentSymbol} DocumentSymbol
 * @typedef {import('vscode-languageserver-protocol/node').SymbolInformation} SymbolInformation
 * @typedef {import('vscode-languageserver-protocol/node').TextDocumentContentChangeEvent} ContentChange
 * @typedef {{ uri: string, languageId: string, version: number, text: string }} Document
 */

/**
 * @param {string} text
 * @param {number} offset
 * @returns {Position}
 */
function positionAt(text, offset) {
  const before = text.slice(0, offset)
  const line = before.split('\n').length - 1
  return { line, character: offset - (before.lastIndexOf('\n') + 1) }
}

/**
 * Offsets are UTF-16 code units, which is what JavaScript strings index by.
 * @param {string} text
 * @param {Position} position
 */
function offsetAt(text, position) {
  let offset = 0
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', offset)
    if (next < 0) return text.length
    offset = next + 1
  }
  const lineEnd = text.indexOf('\n', offset)
  const end = lineEnd < 0 ? text.length : lineEnd
  return Math.min(offset + position.character, end)
}

/**
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {Range}
 */
function rangeOf(text, start, end) {
  return { start: positionAt(text, start), end: positionAt(text, end) }
}

/** Folders a workspace scan never enters. */
const skippedFolders = new Set(['node_modules', '.git'])

export class DocumentStore {
  /** @param {ReadonlyArray<string>} extensions file extensions (with dot) this server analyses on disk */
  constructor(extensions) {
    /** @type {Map<string, Document>} */
    this.documents = new Map()
    /** @private */
    this.extensions = new Set(extensions)
    /** @private @type {string | undefined} */
    this.root = undefined
    /** Whether the workspace's files on disk count (deferred-discovery: not before the server found them). */
    this.scanDisk = true
  }

  /** @param {string} rootUri the workspace root from initialize; only `file:` roots are scanned */
  setRoot(rootUri) {
    this.root = rootUri.startsWith('file:') ? fileURLToPath(rootUri) : undefined
  }

  /**
   * Open documents plus the workspace's files on disk (symlinks are not followed: a server that follows
   * them is what the host's containment is for, and the foreign-uris scenario covers it explicitly).
   * @returns {Document[]}
   */
  all() {
    /** @type {Map<string, Document>} */
    const found = new Map()
    /** @param {string} dir */
    const scan = (dir) => {
      /** @type {import('node:fs').Dirent[]} */
      let entries
      try {
        entries = readdirSync(dir, { withFileTypes: true })
      } catch {
        return // deleted while scanning, or not readable: a real server skips it too
      }
      for (const entry of entries) {
        const path = nodePath.join(dir, entry.name)
        if (entry.isDirectory() && !skippedFolders.has(entry.name)) scan(path)
        else if (entry.isFile() && this.extensions.has(nodePath.extname(entry.name))) {
          const uri = pathToFileURL(path).href
          found.set(uri, { uri, languageId: 'fault', version: 0, text: readFileSync(path, 'utf8') })
        }
      }
    }
    if (this.root !== undefined && this.scanDisk) scan(this.root)
    for (const document of this.documents.values()) found.set(document.uri, document)
    return [...found.values()]
  }

  /** @param {Document} document */
  open(document) {
    this.documents.set(document.uri, { ...document })
  }

  /**
   * Applies full or incremental changes, in order.
   * @param {string} uri
   * @param {number} version
   * @param {ContentChange[]} changes
   */
  change(uri, version, changes) {
    const document = this.documents.get(uri)
    if (document === undefined) throw new Error(`didChange for a document that is not open: ${uri}`)
    for (const change of changes) {
      if ('range' in change && change.range !== undefined) {
        const start = offsetAt(document.text, change.range.start)
        const end = offsetAt(document.text, change.range.end)
        document.text = document.text.slice(0, start) + change.text + document.text.slice(end)
      } else {
        document.text = change.text
      }
    }
    document.version = version
  }

  /** @param {string} uri */
  close(uri) {
    this.documents.delete(uri)
  }

  /**
   * The word under the cursor (touching it from either side), if any.
   * @param {string} uri
   * @param {Position} position
   * @returns {{ word: string, range: Range } | undefined}
   */
  wordAt(uri, position) {
    const document = this.documents.get(uri)
    if (document === undefined) return undefined
    const offset = offsetAt(document.text, position)
    for (const match of document.text.matchAll(identifier)) {
      const start = match.index ?? 0
      const end = start + match[0].length
      if (start <= offset && offset <= end) return { word: match[0], range: rangeOf(document.text, start, end) }
      if (start > offset) break
    }
    return undefined
  }

  /**
   * Every whole-word occurrence of `word` in the workspace.
   * @param {string} word
   * @returns {Location[]}
   */
  occurrences(word) {
    /** @type {Location[]} */
    const found = []
    for (const document of this.all()) {
      for (const match of document.text.matchAll(identifier)) {
        if (match[0] !== word) continue
        const start = match.index ?? 0
        found.push({ uri: document.uri, range: rangeOf(document.text, start, start + word.length) })
      }
    }
    return found
  }

  /**
   * Declarations in one document, or in the whole workspace.
   * @param {string} [uri]
   * @returns {{ name: string, kind: import('vscode-languageserver-protocol/node').SymbolKind, uri: string, range: Range, selectionRange: Range }[]}
   */
  declarations(uri) {
    const documents = uri === undefined ? this.all() : this.all().filter((d) => d.uri === uri)
    return documents.flatMap((document) =>
      [...document.text.matchAll(declaration)].map((match) => {
        const start = match.index ?? 0
        const keyword = match[1] ?? ''
        const name = match[2] ?? ''
        const nameStart = start + match[0].length - name.length
        const lineEnd = document.text.indexOf('\n', start)
        return {
          name,
          kind: symbolKindByKeyword[keyword] ?? SymbolKind.Variable,
          uri: document.uri,
          range: rangeOf(document.text, start, lineEnd < 0 ? document.text.length : lineEnd),
          selectionRange: rangeOf(document.text, nameStart, nameStart + name.length),
        }
      }),
    )
  }

  /**
   * The declaration of the word under the cursor; where there is none, the word's first occurrence in its
   * own document (what a lenient server does for a global it cannot resolve).
   * @param {string} uri
   * @param {Position} position
   * @returns {Location[]}
   */
  definition(uri, position) {
    const target = this.wordAt(uri, position)
    if (target === undefined) return []
    const declared = this.declarations().filter((d) => d.name === target.word)
    if (declared.length > 0) return declared.map((d) => ({ uri: d.uri, range: d.selectionRange }))
    const first = this.occurrences(target.word).find((l) => l.uri === uri)
    return first === undefined ? [] : [first]
  }

  /**
   * @param {string} uri
   * @param {Position} position
   * @param {boolean} includeDeclaration
   * @returns {Location[]}
   */
  references(uri, position, includeDeclaration) {
    const target = this.wordAt(uri, position)
    if (target === undefined) return []
    const all = this.occurrences(target.word)
    if (includeDeclaration) return all
    const declared = this.declarations().filter((d) => d.name === target.word)
    return all.filter(
      (l) =>
        !declared.some(
          (d) =>
            d.uri === l.uri &&
            d.selectionRange.start.line === l.range.start.line &&
            d.selectionRange.start.character === l.range.start.character,
        ),
    )
  }

  /**
   * @param {string} uri
   * @returns {Diagnostic[]}
   */
  diagnostics(uri) {
    const document = this.documents.get(uri)
    if (document === undefined) return []
    return [...document.text.matchAll(/\bFIXME\b/g)].map((match) => ({
      range: rangeOf(document.text, match.index ?? 0, (match.index ?? 0) + match[0].length),
      severity: DiagnosticSeverity.Warning,
      source: 'fault-server',
      message: 'FIXME left in the code',
    }))
  }

  /**
   * A real, if tiny, formatter: removes trailing whitespace.
   * @param {string} uri
   * @returns {TextEdit[]}
   */
  format(uri) {
    const document = this.documents.get(uri)
    if (document === undefined) return []
    return document.text.split('\n').flatMap((line, index) => {
      const trimmed = line.replace(/[ \t]+$/, '')
      return trimmed.length === line.length
        ? []
        : [{ range: { start: { line: index, character: trimmed.length }, end: { line: index, character: line.length } }, newText: '' }]
    })
  }
}
