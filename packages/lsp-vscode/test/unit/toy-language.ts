/**
 * A small language extension played in the fake window through `languages.register…Provider`: outlines of
 * classes, interfaces and their methods (brace-delimited, TypeScript-like, or indentation-delimited,
 * Python-like), definitions by declared name, and references as every whole-word use, across the files
 * of its language in the folder. Enough to derive a type hierarchy from; it has no type hierarchy or
 * implementation provider of its own.
 */
import { readdirSync, readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import * as vscode from 'vscode'

import type { FakeExtension } from '../fake-vscode/host.js'
import { host } from '../fake-vscode/host.js'

export interface ToyLanguage {
  readonly id: string
  readonly extension: string
  readonly blocks: 'braces' | 'indentation'
}

export const toyTypeScript: ToyLanguage = { id: 'typescript', extension: '.ts', blocks: 'braces' }
export const toyPython: ToyLanguage = { id: 'python', extension: '.py', blocks: 'indentation' }

/** The language contribution of the Python-like language (TypeScript's is installed by openWindow). */
export const pythonBasics: FakeExtension = {
  id: 'toy.python',
  packageJSON: { contributes: { languages: [{ id: 'python', extensions: ['.py'] }] } },
}

const typePattern = /^(\s*)(?:export\s+)?(?:abstract\s+)?(class|interface)\s+(\w+)/
const methodPattern = { braces: /^\s+(?:(?:abstract|override)\s+)?(\w+)\(/, indentation: /^\s+def\s+(\w+)\(/ }

function textOf(uri: vscode.Uri): string {
  return host.documents.get(uri.toString())?.getText() ?? readFileSync(uri.fsPath, 'utf8')
}

/** Where the block opened on `line` ends: its closing brace, or its last more-indented line. */
function blockEnd(lines: string[], line: number, indent: number, blocks: ToyLanguage['blocks']): number {
  let last = line
  for (let i = line + 1; i < lines.length; i++) {
    const text = lines[i]!
    if (blocks === 'braces' && text.startsWith(`${' '.repeat(indent)}}`)) return i
    if (blocks === 'indentation' && text.trim() !== '') {
      if (text.search(/\S/) <= indent) return last
      last = i
    }
  }
  return last
}

function outline(language: ToyLanguage, uri: vscode.Uri): vscode.DocumentSymbol[] {
  const lines = textOf(uri).split('\n')
  const symbols: vscode.DocumentSymbol[] = []
  lines.forEach((text, line) => {
    const match = typePattern.exec(text)
    if (match === null) return
    const indent = match[1]!.length
    const name = match[3]!
    const end = blockEnd(lines, line, indent, language.blocks)
    const start = text.indexOf(name, match[0].length - name.length)
    const symbol = new vscode.DocumentSymbol(
      name,
      '',
      match[2] === 'class' ? vscode.SymbolKind.Class : vscode.SymbolKind.Interface,
      new vscode.Range(line, indent, end, lines[end]!.length),
      new vscode.Range(line, start, line, start + name.length),
    )
    for (let i = line + 1; i <= end; i++) {
      const method = methodPattern[language.blocks].exec(lines[i]!)
      if (method === null) continue
      const at = lines[i]!.indexOf(method[1]!)
      const selection = new vscode.Range(i, at, i, at + method[1]!.length)
      symbol.children.push(new vscode.DocumentSymbol(method[1]!, '', vscode.SymbolKind.Method, selection, selection))
    }
    symbols.push(symbol)
  })
  return symbols
}

function filesOf(language: ToyLanguage, root: string): vscode.Uri[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(language.extension))
    .map((entry) => vscode.Uri.file(nodePath.join(entry.parentPath, entry.name)))
}

function wordAt(document: vscode.TextDocument, position: vscode.Position): string | undefined {
  const range = document.getWordRangeAtPosition(position, /\w+/)
  return range === undefined ? undefined : document.getText(range)
}

/** Registers the language's providers for the files under `root`; dispose to unregister. */
export function playToyLanguage(language: ToyLanguage, root: string): vscode.Disposable {
  const subscriptions = [
    vscode.languages.registerDocumentSymbolProvider(language.id, {
      provideDocumentSymbols: (document) => outline(language, document.uri),
    }),
    vscode.languages.registerDefinitionProvider(language.id, {
      provideDefinition(document, position) {
        const name = wordAt(document, position)
        return filesOf(language, root).flatMap((uri) =>
          outline(language, uri)
            .filter((symbol) => symbol.name === name)
            .map((symbol) => new vscode.Location(uri, symbol.selectionRange)),
        )
      },
    }),
    vscode.languages.registerReferenceProvider(language.id, {
      provideReferences(document, position) {
        const name = wordAt(document, position)
        if (name === undefined) return []
        return filesOf(language, root).flatMap((uri) =>
          textOf(uri)
            .split('\n')
            .flatMap((text, line) =>
              [...text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))].map(
                (m) => new vscode.Location(uri, new vscode.Range(line, m.index, line, m.index + name.length)),
              ),
            ),
        )
      },
    }),
  ]
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) }
}
