import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import ts from 'typescript'

import type { SymbolTarget } from '../../lsp-local/test/oracle/oracle.js'
import { definitionRole, type ScipIndex } from '../src/index.js'
import { lastDescriptor, parentSymbol } from '../src/symbols.js'

// The categories of difference between the index's answers and the bare TypeScript server's that docs/index.md
// ("Differences from the TypeScript server") lists with their cause. A difference that fits none is `unexplained`:
// corpora-oracle.test.ts fails on any.

export interface Difference {
  readonly category: string
  readonly operation: 'references' | 'definition'
  /** The symbol asked about (`path:line:character name`, 0-based). */
  readonly symbol: string
  readonly side: 'server only' | 'index only'
  readonly key: string
  /** The text of the key's line, for reading a failure. */
  readonly line: string
}

const texts = new Map<string, { text: string; lines: string[]; comments: Array<[number, number]>; source: ts.SourceFile }>()

/** A file's text, lines and comment ranges (every comment the parser's trivia holds). */
function fileOf(root: string, path: string) {
  let entry = texts.get(`${root}\0${path}`)
  if (entry !== undefined) return entry
  const text = readFileSync(nodePath.join(root, path), 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const comments: Array<[number, number]> = []
  const seen = new Set<number>()
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      comments.push([range.pos, range.end])
    }
  }
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos))
    collect(ts.getTrailingCommentRanges(text, node.end))
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  entry = { text, lines: text.split('\n'), comments, source }
  texts.set(`${root}\0${path}`, entry)
  return entry
}

interface Range {
  readonly start: { readonly line: number; readonly character: number }
  readonly end: { readonly line: number; readonly character: number }
}

function parseKey(key: string): Range & { path: string } {
  const at = key.lastIndexOf('@')
  const [start, end] = key.slice(at + 1).split('-') as [string, string]
  const [sl, sc] = start.split(':').map(Number) as [number, number]
  const [el, ec] = end.split(':').map(Number) as [number, number]
  return { path: key.slice(0, at), start: { line: sl, character: sc }, end: { line: el, character: ec } }
}

/** Whether a location lies inside a comment of its file (a JSDoc `{@link X}`, `@see X`, `@param x`). */
function inComment(root: string, key: string): boolean {
  const { path, start } = parseKey(key)
  const file = fileOf(root, path)
  const offset = file.source.getPositionOfLineAndCharacter(start.line, start.character)
  return file.comments.some(([from, to]) => offset >= from && offset < to)
}

/** What a classification may look at: the corpus root, the index, and both sides' whole answers. */
export interface Answers {
  readonly root: string
  readonly index: ScipIndex
  readonly operation: 'references' | 'definition'
  /** The symbol asked about; for a definition, at the use it is asked from. */
  readonly target: SymbolTarget
  readonly server: ReadonlyArray<string>
  readonly fromIndex: ReadonlyArray<string>
}

const contains = (outer: Range, inner: Range) =>
  (outer.start.line < inner.start.line || (outer.start.line === inner.start.line && outer.start.character <= inner.start.character)) &&
  (outer.end.line > inner.end.line || (outer.end.line === inner.end.line && outer.end.character >= inner.end.character))

/**
 * The index's symbols at exactly a key's range: scip-typescript files a use of a merged name (an interface and a
 * namespace, a type alias and a constant of one name) under each of its declarations, one occurrence each.
 */
function symbolsAtRange(index: ScipIndex, key: string): string[] {
  const { path, start, end } = parseKey(key)
  const document = index.document(path)
  return (document?.occurrences ?? [])
    .filter(
      (o) =>
        o.range.start.line === start.line &&
        o.range.start.character === start.character &&
        o.range.end.line === end.line &&
        o.range.end.character === end.character,
    )
    .map((o) => o.symbol)
}

/** Whether the index holds two or more symbols of one name at the key's range (declarations merged by name). */
function mergedAt(index: ScipIndex, key: string): boolean {
  const symbols = [...new Set(symbolsAtRange(index, key))]
  const names = symbols.map((symbol) => lastDescriptor(symbol)?.name)
  return symbols.length >= 2 && new Set(names).size < names.length
}

/** A definition occurrence the index holds at exactly the key's range, written without an enclosing range. */
function definitionWithoutEnclosing(index: ScipIndex, key: string): boolean {
  const { path, start, end } = parseKey(key)
  return (index.document(path)?.occurrences ?? []).some(
    (o) =>
      (o.roles & definitionRole) !== 0 &&
      o.enclosing === undefined &&
      o.range.start.line === start.line &&
      o.range.start.character === start.character &&
      o.range.end.line === end.line &&
      o.range.end.character === end.character,
  )
}

/** The innermost node at a 0-based position of a file. */
function nodeAt(root: string, path: string, line: number, character: number): ts.Node | undefined {
  const file = fileOf(root, path)
  const offset = file.source.getPositionOfLineAndCharacter(line, character)
  let found: ts.Node | undefined
  const visit = (node: ts.Node) => {
    if (offset < node.getStart(file.source) || offset >= node.getEnd()) return
    found = node
    ts.forEachChild(node, visit)
  }
  visit(file.source)
  return found
}

/**
 * Whether the key's text is the target's name and the symbols at both are all members (references: with no symbol in
 * common): the two sides relate members of one name differently. scip-typescript relates a method to the methods it
 * implements or overrides, but not an accessor (`get size()`) to the property it implements, a property redeclared in
 * a sub-interface to the one it narrows, a member implementing a property of a type literal through a mapped type
 * (`implements Omit<P, 'name'>`), or an object literal's property it names on its own (`deps0:`) to its contextual
 * type's; the server relates them all.
 */
function sameNamedMembers(answers: Answers, key: string): boolean {
  const { root, index, operation, target } = answers
  const asked = index.symbolsAt(target.path, { line: target.line, character: target.character })
  // A definition's key is the whole declaration: its symbols and name are those where it starts (`deps?: Array<any>`).
  const { path, start, end } = parseKey(key)
  const line = fileOf(root, path).lines[start.line] ?? ''
  const there = operation === 'definition' ? index.symbolsAt(path, start) : symbolsAtRange(index, key)
  const text =
    operation === 'definition'
      ? (/^[\p{L}\p{N}_$]+/u.exec(line.slice(start.character))?.[0] ?? '')
      : start.line === end.line
        ? line.slice(start.character, end.character)
        : ''
  if (asked.length === 0 || there.length === 0) return false
  // References: no symbol in common (else the index would have related them). A definition at a use of a property
  // of a union type: the index names each variant's declaration the use is filed under, the server fewer.
  if (operation === 'references' && asked.some((symbol) => there.includes(symbol))) return false
  // A member: a term or method whose owner is a type, a term, a method or a type literal (`P#typeLiteral2:`), not a
  // file or namespace (a top-level name); or how scip-typescript names an object literal's property on its own: a
  // local, or a meta descriptor (`deps0:`).
  const owner = (symbol: string) => {
    const parent = parentSymbol(symbol)
    return parent === undefined ? undefined : lastDescriptor(parent)?.suffix
  }
  const isMember = (symbol: string) =>
    symbol.startsWith('local ') ||
    lastDescriptor(symbol)?.suffix === 'meta' ||
    (['term', 'method'].includes(lastDescriptor(symbol)?.suffix ?? '') && ['type', 'term', 'method', 'meta'].includes(owner(symbol) ?? ''))
  return text === target.name && [...asked, ...there].every(isMember)
}

/** The category docs/index.md lists a difference under, or `unexplained`. */
function categoryOf(answers: Answers, side: 'server only' | 'index only', key: string): string {
  const { root, index, operation, target } = answers
  const asked = `${target.path}@${target.line}:${target.character}-${target.line}:${target.character}`
  if (operation === 'definition') {
    // Asked at a JSDoc mention (`{@link X}`): the server resolves it, the index holds no occurrence there.
    if (side === 'server only' && answers.fromIndex.length === 0 && inComment(root, asked)) return 'definition at a JSDoc mention'
    // The whole declaration against its name: the indexer wrote no enclosing range (a namespace).
    const other = side === 'server only' ? answers.fromIndex : answers.server
    const name = (k: string) => definitionWithoutEnclosing(index, k)
    const pairs = other.some((o) => {
      const [outer, inner] = side === 'server only' ? [key, o] : [o, key]
      const [a, b] = [parseKey(outer), parseKey(inner)]
      return a.path === b.path && contains(a, b) && name(inner)
    })
    if (pairs) return 'declaration range: name only'
    // `const f = () => …`: the indexer's enclosing range is the function, the server's the whole declaration.
    const nested = other.some((o) => {
      const [outer, inner] = side === 'server only' ? [parseKey(key), parseKey(o)] : [parseKey(o), parseKey(key)]
      return (
        outer.path === inner.path &&
        contains(outer, inner) &&
        outer.end.line === inner.end.line &&
        outer.end.character === inner.end.character
      )
    })
    if (nested) return 'declaration range: a function in a constant'
    if (sameNamedMembers(answers, key)) return 'members of one name related differently'
    // `{ asRanges }`: the server names the property and the variable it reads, the index the property only.
    const node = nodeAt(root, target.path, target.line, target.character)
    if (side === 'server only' && node !== undefined && ts.isShorthandPropertyAssignment(node.parent)) return 'shorthand property'
    return 'unexplained'
  }
  if (side === 'server only' && inComment(root, key)) return 'JSDoc mention'
  if (side === 'index only' && mergedAt(index, key)) return 'merged declarations'
  if (sameNamedMembers(answers, key)) return 'members of one name related differently'
  return 'unexplained'
}

export function classify(answers: Answers, side: 'server only' | 'index only', key: string): Difference {
  const { root, operation, target } = answers
  const { path, start } = parseKey(key)
  const line = fileOf(root, path).lines[start.line] ?? ''
  return {
    category: categoryOf(answers, side, key),
    operation,
    symbol: `${target.path}:${target.line}:${target.character} ${target.name}`,
    side,
    key,
    line: line.trim(),
  }
}
