// Size: the wider mix's queries and one normal form per operation for each layer's output shape (floor, ctx.lsp, tools) — they must stay side by side to stay comparable.
// The wider mix (issue 15) on the real-repository workspaces: definition, references, implementation, hover,
// document symbols, call hierarchy (prepare + incoming calls) and diagnostics of one file. Every layer's
// answer is brought to one normal form and compared with the floor's.
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { positionOf, type NormalAnswer, type ReadExpectation, type ReadOperation, type ReadQuery } from './read-mix.js'

export type { NormalAnswer } from './read-mix.js'

/** The wider mix's operations, in the order they are asked. */
export const wideOperations = [
  'definition',
  'references',
  'implementation',
  'hover',
  'documentSymbols',
  'callHierarchy',
  'diagnostics',
] as const satisfies ReadonlyArray<ReadOperation>

/**
 * Operations that search the workspace: a layer may find more than the floor, because the host loads
 * projects the bare server did not; it must still find everything the floor found.
 */
const workspaceSearches: ReadonlySet<string> = new Set(['references', 'implementation', 'callHierarchy'])

/** Whether a layer's normal answer agrees with the floor's (see {@link workspaceSearches} for the one leniency). */
export function agreesWithFloor(operation: ReadOperation, floor: NormalAnswer, answer: NormalAnswer): boolean {
  const have = new Set(answer.keys)
  const want = new Set(floor.keys)
  if (workspaceSearches.has(operation)) {
    if (answer.count < floor.count) return false
    // A page of a larger answer can only be checked by its count; a page of an equal one lies within the floor's.
    if (answer.partial) return answer.count > floor.count || answer.keys.every((key) => want.has(key))
    return floor.keys.every((key) => have.has(key))
  }
  if (answer.count !== floor.count) return false
  if (answer.partial) return answer.keys.every((key) => want.has(key))
  return answer.keys.length === floor.keys.length && answer.keys.every((key, index) => key === floor.keys[index])
}

const sorted = (keys: ReadonlyArray<string>): string[] => [...keys].sort()

/** A full answer's normal form from its keys. */
export function fullAnswer(keys: ReadonlyArray<string>): NormalAnswer {
  return { count: keys.length, keys: sorted(keys), partial: false }
}

/** Workspace-relative path of a file URI or absolute path inside `root`, else undefined (outside answers are dropped). */
export function insideRoot(root: string, uriOrPath: string): string | undefined {
  let path = uriOrPath
  if (uriOrPath.startsWith('file:')) path = fileURLToPath(uriOrPath)
  else if (!nodePath.isAbsolute(uriOrPath)) return uriOrPath.split(nodePath.sep).join('/')
  const relative = nodePath.relative(root, path)
  if (relative === '' || relative.startsWith('..') || nodePath.isAbsolute(relative)) return undefined
  return relative.split(nodePath.sep).join('/')
}

interface Position {
  readonly line: number
  readonly character: number
}
interface Range {
  readonly start: Position
  readonly end: Position
}

/** `path:line:column`, 1-based, as the tools show a place. */
export function placeKey(path: string, line1: number, column1: number): string {
  return `${path}:${line1}:${column1}`
}

// ---------------------------------------------------------------------------------------------------------
// Hover: the first line of the signature (the hover's code blocks), whitespace collapsed.

/** The first non-empty line of a hover's code blocks (fences removed), else of its text; whitespace collapsed. */
export function hoverSignatureLine(markdownOrText: string, format: 'markdown' | 'plaintext' = 'markdown'): string {
  let text = markdownOrText
  if (format === 'markdown') {
    const blocks = [...markdownOrText.matchAll(/```[\w+-]*\n([\s\S]*?)```/g)].map((match) => match[1]!)
    if (blocks.length > 0) text = blocks.join('\n')
  }
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? ''
  return line.replace(/\s+/g, ' ').trim()
}

function hoverAnswer(line: string): NormalAnswer {
  return line === '' ? fullAnswer([]) : fullAnswer([line])
}

// ---------------------------------------------------------------------------------------------------------
// Document symbols: names of the top level and their members (the tools' default outline depth is 2).

const outlineDepth = 2

interface NamedTree {
  readonly name: string
  readonly children?: ReadonlyArray<NamedTree>
}

function outlineKeys(symbols: ReadonlyArray<NamedTree>, depth = 0): string[] {
  if (depth >= outlineDepth) return []
  return symbols.flatMap((symbol) => [`${depth}:${symbol.name}`, ...outlineKeys(symbol.children ?? [], depth + 1)])
}

// ---------------------------------------------------------------------------------------------------------
// Diagnostics: what the tools show by default — no hints, nothing tagged unnecessary (unused code).

const severityNames = ['error', 'warning', 'information', 'hint'] as const

function diagnosticKey(line1: number, column1: number, severity: string, code: unknown): string {
  return `${line1}:${column1}:${severity}:${code === undefined || code === null ? '' : String(code)}`
}

// ---------------------------------------------------------------------------------------------------------
// The floor: raw protocol answers.

interface RawLocation {
  readonly uri?: string
  readonly range?: Range
  readonly targetUri?: string
  readonly targetSelectionRange?: Range
}
interface RawHover {
  readonly contents: string | { readonly kind?: string; readonly value: string } | ReadonlyArray<string | { readonly value: string }>
}
interface RawHierarchyItem {
  readonly name: string
  readonly uri: string
  readonly selectionRange: Range
}
interface RawDiagnostic {
  readonly range: Range
  readonly severity?: number
  readonly code?: string | number
  readonly tags?: ReadonlyArray<number>
}

/** What the floor answers for a call hierarchy: the prepared items and the first one's incoming calls. */
export interface FloorCallHierarchy {
  readonly items: ReadonlyArray<RawHierarchyItem> | null
  readonly calls: ReadonlyArray<{ readonly from: RawHierarchyItem }> | null
}

function rawLocationKeys(root: string, answer: unknown): string[] {
  if (answer === null || answer === undefined) return []
  const list = (Array.isArray(answer) ? answer : [answer]) as ReadonlyArray<RawLocation>
  return list.flatMap((location) => {
    const uri = location.targetUri ?? location.uri
    const range = location.targetSelectionRange ?? location.range
    const path = uri === undefined ? undefined : insideRoot(root, uri)
    return path === undefined || range === undefined ? [] : [placeKey(path, range.start.line + 1, range.start.character + 1)]
  })
}

function rawHoverText(hover: RawHover | null): { text: string; format: 'markdown' | 'plaintext' } {
  if (hover === null || hover === undefined) return { text: '', format: 'plaintext' }
  const { contents } = hover
  if (typeof contents === 'string') return { text: contents, format: 'markdown' }
  if (Array.isArray(contents))
    return {
      text: contents.map((part) => (typeof part === 'string' ? part : `\`\`\`\n${part.value}\n\`\`\``)).join('\n'),
      format: 'markdown',
    }
  const markup = contents as { readonly kind?: string; readonly value: string }
  return { text: markup.value, format: markup.kind === 'plaintext' ? 'plaintext' : 'markdown' }
}

function callerKey(root: string, item: RawHierarchyItem | { name: string; path: string; selectionRange: Range }): string[] {
  const path = insideRoot(root, 'uri' in item ? item.uri : item.path)
  // A module-level caller is named by its file: the server names it by its absolute path, the seam relative.
  const name = nodePath.isAbsolute(item.name) ? (insideRoot(root, item.name) ?? item.name) : item.name
  return path === undefined ? [] : [`${name}@${path}:${item.selectionRange.start.line + 1}`]
}

/** The floor's raw answer to a query, in the normal form. */
export function floorNormal(root: string, operation: ReadOperation, answer: unknown): NormalAnswer {
  switch (operation) {
    case 'definition':
    case 'references':
    case 'implementation':
      return fullAnswer(rawLocationKeys(root, answer))
    case 'hover': {
      const { text, format } = rawHoverText(answer as RawHover | null)
      return hoverAnswer(hoverSignatureLine(text, format))
    }
    case 'documentSymbols':
      return fullAnswer(outlineKeys((answer ?? []) as ReadonlyArray<NamedTree>))
    case 'callHierarchy': {
      const calls = (answer as FloorCallHierarchy | null)?.calls ?? []
      return fullAnswer(calls.flatMap((call) => callerKey(root, call.from)))
    }
    case 'diagnostics':
      return fullAnswer(
        ((answer ?? []) as ReadonlyArray<RawDiagnostic>).flatMap((diagnostic) => {
          const severity = severityNames[(diagnostic.severity ?? 1) - 1] ?? 'error'
          if (severity === 'hint' || (diagnostic.tags ?? []).includes(1)) return []
          return [diagnosticKey(diagnostic.range.start.line + 1, diagnostic.range.start.character + 1, severity, diagnostic.code)]
        }),
      )
    case 'typeHierarchy': // the read mix's derived operation is judged in type-hierarchy.ts
      throw new Error('the wider mix has no type hierarchy')
  }
}

// ---------------------------------------------------------------------------------------------------------
// ctx.lsp: the seam's normalized results (absolute paths, zero-based positions).

interface SeamLocation {
  readonly path: string
  readonly range: Range
  readonly targetSelectionRange?: Range
}
interface SeamDiagnostic {
  readonly range: Range
  readonly severity: string
  readonly code?: string | number
  readonly tags?: ReadonlyArray<string>
}

/** What the ctx.lsp layer answers for a call hierarchy: the incoming calls of the first prepared item. */
export interface SeamCallHierarchy {
  readonly kind: 'hierarchyCalls'
  readonly calls: ReadonlyArray<{ readonly item: { name: string; path: string; selectionRange: Range } }>
}

/** A seam result (`ctx.lsp.query`), in the normal form. */
export function seamNormal(root: string, operation: ReadOperation, result: unknown): NormalAnswer {
  const r = result as { kind: string } & Record<string, unknown>
  switch (operation) {
    case 'definition':
    case 'references':
    case 'implementation':
      if (r.kind !== 'locations') return fullAnswer([])
      return fullAnswer(
        (r['locations'] as ReadonlyArray<SeamLocation>).flatMap((location) => {
          const path = insideRoot(root, location.path)
          const start = (location.targetSelectionRange ?? location.range).start
          return path === undefined ? [] : [placeKey(path, start.line + 1, start.character + 1)]
        }),
      )
    case 'hover': {
      const hover = r['hover'] as { contents: string; format: 'markdown' | 'plaintext' } | null | undefined
      return hoverAnswer(hover === null || hover === undefined ? '' : hoverSignatureLine(hover.contents, hover.format))
    }
    case 'documentSymbols':
      return fullAnswer(r.kind === 'documentSymbols' ? outlineKeys(r['symbols'] as ReadonlyArray<NamedTree>) : [])
    case 'callHierarchy':
      return fullAnswer(
        r.kind === 'hierarchyCalls' ? (result as SeamCallHierarchy).calls.flatMap((call) => callerKey(root, call.item)) : [],
      )
    case 'diagnostics': {
      if (r.kind !== 'diagnostics') return fullAnswer([])
      const files = r['files'] as ReadonlyArray<{ diagnostics: ReadonlyArray<SeamDiagnostic> }>
      return fullAnswer(
        files.flatMap((file) =>
          file.diagnostics.flatMap((d) =>
            d.severity === 'hint' || (d.tags ?? []).includes('unnecessary')
              ? []
              : [diagnosticKey(d.range.start.line + 1, d.range.start.character + 1, d.severity, d.code)],
          ),
        ),
      )
    }
    case 'typeHierarchy':
      throw new Error('the wider mix has no type hierarchy')
  }
}

// ---------------------------------------------------------------------------------------------------------
// The tools (in process and over MCP): structured output, workspace-relative paths, 1-based positions.

interface ToolPage {
  readonly total?: number
  readonly truncated?: boolean
}
interface OutlineNode {
  readonly name: string
  readonly children?: ReadonlyArray<OutlineNode>
}

function paged(structured: Record<string, unknown>, keys: ReadonlyArray<string>, total?: unknown): NormalAnswer {
  const page = structured['page'] as ToolPage | undefined
  const count = typeof total === 'number' ? total : typeof page?.total === 'number' ? page.total : keys.length
  return { count, keys: sorted(keys), partial: page?.truncated === true || count > keys.length }
}

/** A tool's structured output, in the normal form. */
export function toolNormal(operation: ReadOperation, structured: Record<string, unknown> | undefined): NormalAnswer {
  if (structured === undefined) return fullAnswer([])
  switch (operation) {
    case 'definition':
    case 'references':
    case 'implementation': {
      const files = (structured['files'] ?? []) as ReadonlyArray<{
        path: string
        locations: ReadonlyArray<{ line: number; column: number }>
      }>
      const keys = files.flatMap((file) => file.locations.map((l) => placeKey(file.path, l.line, l.column)))
      return paged(structured, keys, structured['totalFound'])
    }
    case 'hover': {
      const signature = String(structured['signature'] ?? '')
      return hoverAnswer(hoverSignatureLine(signature === '' ? String(structured['documentation'] ?? '') : signature, 'plaintext'))
    }
    case 'documentSymbols':
      return paged(structured, outlineKeys((structured['outline'] ?? []) as ReadonlyArray<OutlineNode>), structured['totalFound'])
    case 'callHierarchy': {
      const direct = (structured['direct'] ?? []) as ReadonlyArray<{ name: string; path: string; line: number }>
      return paged(
        structured,
        direct.map((d) => `${d.name}@${d.path}:${d.line}`),
      )
    }
    case 'diagnostics': {
      const files = (structured['files'] ?? []) as ReadonlyArray<{
        diagnostics: ReadonlyArray<{ line: number; column: number; severity: string; code?: string }>
      }>
      return paged(
        structured,
        files.flatMap((file) => file.diagnostics.map((d) => diagnosticKey(d.line, d.column, d.severity, d.code))),
      )
    }
    case 'typeHierarchy':
      throw new Error('the wider mix has no type hierarchy')
  }
}

// ---------------------------------------------------------------------------------------------------------
// The queries: positions found by reading the source, never counted by hand.

/** One query of the wider mix before the floor has answered it: where, and how to find the place. */
interface WidePlace {
  readonly operation: ReadOperation
  readonly label: string
  readonly path: string
  /** Text on the line; the position is `into` characters into its first occurrence. */
  readonly needle: string
  readonly into: number
}

/**
 * Where each corpus is asked: the fixed symbols' declarations (references, implementation, hover, call
 * hierarchy), a use in another file (definition) and one file for the outline and the diagnostics.
 * Python: pyright has no textDocument/implementation, so the Python mix leaves it out.
 */
export const widePlaces: Readonly<Record<string, ReadonlyArray<WidePlace>>> = {
  flask: [
    {
      operation: 'definition',
      label: 'definition: current_app.url_for (helpers.py → app.py)',
      path: 'src/flask/helpers.py',
      needle: 'return current_app.url_for(',
      into: 'return current_app.'.length,
    },
    { operation: 'references', label: 'references: Blueprint', path: 'src/flask/blueprints.py', needle: 'class Blueprint(', into: 6 },
    { operation: 'hover', label: 'hover: Flask', path: 'src/flask/app.py', needle: 'class Flask(', into: 6 },
    { operation: 'documentSymbols', label: 'documentSymbols: helpers.py', path: 'src/flask/helpers.py', needle: 'def url_for(', into: 4 },
    {
      operation: 'callHierarchy',
      label: 'callHierarchy: callers of get_debug_flag',
      path: 'src/flask/helpers.py',
      needle: 'def get_debug_flag(',
      into: 4,
    },
    { operation: 'diagnostics', label: 'diagnostics: helpers.py', path: 'src/flask/helpers.py', needle: 'def url_for(', into: 4 },
  ],
  'vscode-languageserver-node': [
    {
      operation: 'definition',
      label: 'definition: Disposable (connection.ts → disposable.ts)',
      path: 'jsonrpc/src/common/connection.ts',
      needle: '): Disposable;',
      into: 3,
    },
    {
      operation: 'references',
      label: 'references: Disposable',
      path: 'jsonrpc/src/common/disposable.ts',
      needle: 'export interface Disposable ',
      into: 'export interface '.length,
    },
    {
      operation: 'implementation',
      label: 'implementation: Disposable',
      path: 'jsonrpc/src/common/disposable.ts',
      needle: 'export interface Disposable ',
      into: 'export interface '.length,
    },
    {
      operation: 'hover',
      label: 'hover: Range',
      path: 'types/src/main.ts',
      needle: 'export interface Range ',
      into: 'export interface '.length,
    },
    {
      operation: 'documentSymbols',
      label: 'documentSymbols: messages.ts',
      path: 'jsonrpc/src/common/messages.ts',
      needle: 'export interface Message ',
      into: 'export interface '.length,
    },
    {
      operation: 'callHierarchy',
      label: 'callHierarchy: callers of createMessageConnection',
      path: 'jsonrpc/src/common/connection.ts',
      needle: 'export function createMessageConnection(',
      into: 'export function '.length,
    },
    {
      operation: 'diagnostics',
      label: 'diagnostics: messages.ts',
      path: 'jsonrpc/src/common/messages.ts',
      needle: 'export interface Message ',
      into: 'export interface '.length,
    },
  ],
  // Go and Rust (scenarios/languages.ts): the same operations but diagnostics, each a widely used name.
  'gorilla-mux': [
    {
      operation: 'definition',
      label: 'definition: newRouteRegexp (route.go → regexp.go)',
      path: 'route.go',
      needle: 'rr, err := newRouteRegexp(',
      into: 'rr, err := '.length,
    },
    { operation: 'references', label: 'references: Router', path: 'mux.go', needle: 'type Router struct {', into: 'type '.length },
    {
      operation: 'implementation',
      label: 'implementation: matcher',
      path: 'route.go',
      needle: 'type matcher interface {',
      into: 'type '.length,
    },
    { operation: 'hover', label: 'hover: NewRouter', path: 'mux.go', needle: 'func NewRouter() *Router {', into: 'func '.length },
    {
      operation: 'documentSymbols',
      label: 'documentSymbols: route.go',
      path: 'route.go',
      needle: 'type Route struct {',
      into: 'type '.length,
    },
    {
      operation: 'callHierarchy',
      label: 'callHierarchy: callers of newRouteRegexp',
      path: 'regexp.go',
      needle: 'func newRouteRegexp(',
      into: 'func '.length,
    },
  ],
  bytes: [
    {
      operation: 'definition',
      label: 'definition: Bytes (bytes_mut.rs → bytes.rs)',
      path: 'src/bytes_mut.rs',
      needle: 'impl From<BytesMut> for Bytes {',
      into: 'impl From<BytesMut> for '.length,
    },
    { operation: 'references', label: 'references: Bytes', path: 'src/bytes.rs', needle: 'pub struct Bytes {', into: 'pub struct '.length },
    {
      operation: 'implementation',
      label: 'implementation: Buf',
      path: 'src/buf/buf_impl.rs',
      needle: 'pub trait Buf {',
      into: 'pub trait '.length,
    },
    { operation: 'hover', label: 'hover: BytesMut', path: 'src/bytes_mut.rs', needle: 'pub struct BytesMut {', into: 'pub struct '.length },
    {
      operation: 'documentSymbols',
      label: 'documentSymbols: bytes.rs',
      path: 'src/bytes.rs',
      needle: 'pub struct Bytes {',
      into: 'pub struct '.length,
    },
    {
      operation: 'callHierarchy',
      label: 'callHierarchy: callers of Bytes::from_static',
      path: 'src/bytes.rs',
      needle: 'pub const fn from_static(',
      into: 'pub const fn '.length,
    },
  ],
}

/** Operations of the wider mix a corpus leaves out, and why. */
export const wideLeftOut: Readonly<Record<string, ReadonlyArray<{ operation: ReadOperation; why: string }>>> = {
  flask: [{ operation: 'implementation', why: 'pyright has no textDocument/implementation: not asked' }],
}

/** The corpus's wide-mix queries, positions found in `read(path)`'s text; `expect` filled in later from the floor. */
export function wideMixQueries(corpus: string, read: (path: string) => string, expect: ReadExpectation = {}): ReadQuery[] {
  const places = widePlaces[corpus]
  if (places === undefined) throw new Error(`no wide-mix places for the corpus ${corpus}`)
  return places.map((place) => {
    const text = read(place.path)
    const position = positionOf(text, place.needle, 0, place.into)
    const lineText = text.split('\n')[position.line] ?? ''
    return {
      label: place.label,
      operation: place.operation,
      path: place.path,
      position,
      line: position.line + 1,
      matchText: lineText.slice(position.character).match(/^[A-Za-z0-9_$]+/)?.[0] ?? place.needle,
      expect,
    }
  })
}
