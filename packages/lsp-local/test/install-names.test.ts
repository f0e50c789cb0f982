import { readdirSync, readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import ts from 'typescript'
import { expect, test } from 'vitest'

import { indexerRecords } from '../src/indexers/index.js'
import { languageRecords } from '../src/languages/index.js'
import { packageNames } from '../src/languages/install.js'

/*
 * Issue 47: no server executable or install package name of a record appears in a string of packages/*\/src outside
 * that record's folder. The names come from the records' own install data (their binaries and package names), so
 * there is no list of plain words to keep. A name is matched as a whole word of a string — a string's words are
 * split at spaces, quotes, punctuation, path separators and `@` — never inside another word: `ty` is not found in
 * `type`, nor `buf` in `buffer`.
 */

const packages = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = nodePath.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Every string of a file (literals and the literal parts of template strings), with its line. */
function stringsOf(path: string): Array<{ readonly line: number; readonly text: string }> {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
  const out: Array<{ line: number; text: string }> = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      // An import's module specifier names a module, not a server.
      if (!(ts.isStringLiteral(node) && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent)))) {
        out.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.text })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return out
}

/** The words of a string: split at white space, quotes, punctuation, path separators and `@` (a version). */
const wordsOf = (text: string): string[] => text.split(/[\s`'"(),;:=<>|{}[\]/\\@*!?]+|\.(?=\s|$)/).filter((word) => word !== '')

/** Name → the records whose install data gives it (vscode-langservers-extracted is four records' package). */
const owners = new Map<string, string[]>()
for (const record of languageRecords) {
  for (const name of packageNames(record.install)) owners.set(name, [...(owners.get(name) ?? []), record.id])
}
/** An indexer's names belong to its folder, packages/lsp-local/src/indexers/<id>/. */
const indexerOwners = new Map<string, string>()
for (const record of indexerRecords) for (const name of packageNames(record.install)) indexerOwners.set(name, record.id)

/** Every string naming a record's server outside that record's folder, as `file:line name`, each once. */
function violations(): string[] {
  const found = new Set<string>()
  for (const pkg of readdirSync(packages)) {
    let files: string[]
    try {
      files = sourceFiles(nodePath.join(packages, pkg, 'src'))
    } catch {
      continue
    }
    for (const path of files) {
      const relative = nodePath.relative(packages, path).split(nodePath.sep).join('/')
      for (const { line, text } of stringsOf(path)) {
        const words = new Set(wordsOf(text))
        for (const [name, ids] of owners) {
          if (ids.some((id) => relative.startsWith(`lsp-local/src/languages/${id}/`))) continue
          // An interpreter named after its language (Perl::LanguageServer runs `perl`) is the language's id in the
          // seam's folder of that language: there it names the language, not the server.
          if (relative.startsWith(`lsp/src/languages/${name}/`)) continue
          if (name.includes('/') ? text.includes(name) : words.has(name)) found.add(`${relative}:${line} ${name}`)
        }
        for (const [name, id] of indexerOwners) {
          if (relative.startsWith(`lsp-local/src/indexers/${id}/`)) continue
          if (name.includes('/') ? text.includes(name) : words.has(name)) found.add(`${relative}:${line} ${name}`)
        }
      }
    }
  }
  return [...found]
}

test('no record names a server outside its folder', () => {
  expect(violations().sort()).toEqual([])
})

test('names are whole words of a string, never parts of other words', () => {
  expect(wordsOf('the type of a buffer')).not.toContain('ty')
  expect(wordsOf('a typed buf_size')).not.toContain('buf')
  expect(wordsOf('run `ty server`, then ~/go/bin/buf, or basedpyright@1.40.1.')).toEqual(
    expect.arrayContaining(['ty', 'buf', 'basedpyright']),
  )
  // Every record's server has names to look for, so the scan above can fail.
  for (const record of [...languageRecords, ...indexerRecords]) expect(packageNames(record.install).length, record.id).toBeGreaterThan(0)
})
