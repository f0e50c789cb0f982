import type { LspSymbolKind } from '@codeseam/lsp'

// SCIP symbol strings (`scip.proto`, message Symbol): `<scheme> <manager> <package> <version> <descriptors>` or
// `local <id>`. Read here without the generated bindings: an index carries symbols as strings.

/** The suffix of a descriptor: what the grammar says the name is. */
export type DescriptorSuffix = 'namespace' | 'type' | 'term' | 'method' | 'typeParameter' | 'parameter' | 'meta' | 'macro'

/** One descriptor of a symbol: its name, its suffix and where it starts in the symbol string. */
export interface Descriptor {
  readonly name: string
  readonly suffix: DescriptorSuffix
  /** A method's disambiguator (`+1` in `m(+1).`), empty otherwise. */
  readonly disambiguator: string
  /** Offset of the descriptor in the symbol string: the symbol up to here is its parent's. */
  readonly start: number
}

/** A symbol string read: local or global, and a global's descriptors (empty when it could not be read). */
export interface ParsedSymbol {
  readonly local: boolean
  readonly descriptors: ReadonlyArray<Descriptor>
}

const identifierCharacter = /[\w+$-]/

/** Reads `<name>` at `i`: a simple identifier, or a backquoted one with doubled backquotes. */
function readName(text: string, i: number): { name: string; next: number } | undefined {
  if (text[i] === '`') {
    let name = ''
    let j = i + 1
    while (j < text.length) {
      if (text[j] === '`') {
        if (text[j + 1] === '`') {
          name += '`'
          j += 2
          continue
        }
        return { name, next: j + 1 }
      }
      name += text[j]
      j++
    }
    return undefined
  }
  let j = i
  while (j < text.length && identifierCharacter.test(text[j] ?? '')) j++
  return j === i ? undefined : { name: text.slice(i, j), next: j }
}

/** Reads up to `close` (a parameter's or type parameter's name, a method's disambiguator). */
function readUntil(text: string, i: number, close: string): { name: string; next: number } | undefined {
  const end = text.indexOf(close, i)
  if (end < 0) return undefined
  const raw = text.slice(i, end)
  return { name: raw.startsWith('`') && raw.endsWith('`') && raw.length >= 2 ? raw.slice(1, -1).replace(/``/g, '`') : raw, next: end + 1 }
}

const suffixByCharacter: Readonly<Record<string, DescriptorSuffix>> = {
  '/': 'namespace',
  '#': 'type',
  '.': 'term',
  ':': 'meta',
  '!': 'macro',
}

/** The descriptors of `text` starting at `offset`, or undefined when they do not follow the grammar. */
function readDescriptors(text: string, offset: number): Descriptor[] | undefined {
  const out: Descriptor[] = []
  let i = offset
  while (i < text.length) {
    const start = i
    const open = text[i]
    if (open === '[' || open === '(') {
      const read = readUntil(text, i + 1, open === '[' ? ']' : ')')
      if (read === undefined) return undefined
      out.push({ name: read.name, suffix: open === '[' ? 'typeParameter' : 'parameter', disambiguator: '', start })
      i = read.next
      continue
    }
    const read = readName(text, i)
    if (read === undefined) return undefined
    const suffix = text[read.next] ?? ''
    if (suffix === '(') {
      const method = readUntil(text, read.next + 1, ')')
      if (method === undefined || text[method.next] !== '.') return undefined
      out.push({ name: read.name, suffix: 'method', disambiguator: method.name, start })
      i = method.next + 1
      continue
    }
    const kind = suffixByCharacter[suffix]
    if (kind === undefined) return undefined
    out.push({ name: read.name, suffix: kind, disambiguator: '', start })
    i = read.next + 1
  }
  return out
}

/** The offset where a global symbol's descriptors start: after four space-separated fields (`  ` is an escaped space). */
function descriptorsOffset(symbol: string): number | undefined {
  let fields = 0
  for (let i = 0; i < symbol.length; i++) {
    if (symbol[i] !== ' ') continue
    if (symbol[i + 1] === ' ') {
      i++
      continue
    }
    fields++
    if (fields === 4) return i + 1
  }
  return undefined
}

const parsedCache = new Map<string, ParsedSymbol>()

/** Reads a symbol string (memoized: an index names each symbol many times). */
export function parseSymbol(symbol: string): ParsedSymbol {
  const cached = parsedCache.get(symbol)
  if (cached !== undefined) return cached
  let parsed: ParsedSymbol
  if (symbol.startsWith('local ')) parsed = { local: true, descriptors: [] }
  else {
    const offset = descriptorsOffset(symbol)
    parsed = { local: false, descriptors: (offset === undefined ? undefined : readDescriptors(symbol, offset)) ?? [] }
  }
  if (parsedCache.size > 200_000) parsedCache.clear()
  parsedCache.set(symbol, parsed)
  return parsed
}

/** The last descriptor of a global symbol (what it names), undefined for locals and unreadable symbols. */
export function lastDescriptor(symbol: string): Descriptor | undefined {
  const { descriptors } = parseSymbol(symbol)
  return descriptors[descriptors.length - 1]
}

/** The symbol that owns this one (`a/B#m().` → `a/B#`), undefined at the top. */
export function parentSymbol(symbol: string): string | undefined {
  const { descriptors } = parseSymbol(symbol)
  const last = descriptors[descriptors.length - 1]
  return last === undefined || descriptors.length < 2 ? undefined : symbol.slice(0, last.start)
}

/** Whether a symbol is a constructor: scip-typescript names it `<constructor>` (a method of the class). */
export function isConstructor(symbol: string): boolean {
  const last = lastDescriptor(symbol)
  return last?.suffix === 'method' && last.name === '<constructor>'
}

/** The class of a constructor symbol (`C#<constructor>().` → `C#`). */
export function classOfConstructor(symbol: string): string | undefined {
  return isConstructor(symbol) ? parentSymbol(symbol) : undefined
}

/** The constructor symbol scip-typescript gives a class (`C#` → `` C#`<constructor>`(). ``). */
export function constructorOfClass(symbol: string): string | undefined {
  return lastDescriptor(symbol)?.suffix === 'type' ? `${symbol}\`<constructor>\`().` : undefined
}

/** The name people see: the last descriptor's (`constructor` for a constructor). */
export function nameOfSymbol(symbol: string, displayName?: string): string {
  if (displayName !== undefined && displayName !== '') return displayName
  const last = lastDescriptor(symbol)
  if (last === undefined) return symbol.startsWith('local ') ? symbol.slice('local '.length) : symbol
  return last.name === '<constructor>' ? 'constructor' : last.name
}

/**
 * The first line of a symbol's signature, as indexers render it in hover documentation (`class Circle`,
 * `(method) area(): number`, `var circle: Circle`): the signature field, else the first fenced code block.
 */
export function signatureLine(documentation: ReadonlyArray<string>, signature?: string): string | undefined {
  if (signature !== undefined && signature !== '') return signature.split('\n')[0]
  const first = documentation[0]
  const fenced = first === undefined ? undefined : /^```[^\n]*\n([^\n]*)/.exec(first)
  return fenced?.[1]
}

/** Kinds by the word a signature starts with (TypeScript's hover prefixes; other indexers' keywords alike). */
const kindBySignature: ReadonlyArray<readonly [RegExp, LspSymbolKind]> = [
  [/^\((method|function)\)/, 'method'],
  [/^\((property|getter|setter|accessor)\)/, 'property'],
  [/^\(enum member\)/, 'enumMember'],
  [/^\(type parameter\)|^type parameter\b/, 'typeParameter'],
  [/^(abstract )?class\b/, 'class'],
  [/^interface\b/, 'interface'],
  [/^(const )?enum\b/, 'enum'],
  [/^type\b/, 'class'],
  [/^constructor\b/, 'constructor'],
  [/^(module|namespace)\b/, 'module'],
  [/^(async )?function\b|^def\b|^func\b|^fn\b/, 'function'],
  [/^(var|let|const)\b/, 'variable'],
  [/^struct\b/, 'struct'],
  [/^trait\b/, 'interface'],
]

/**
 * A symbol's kind for outlines and symbol search. SCIP's `SymbolInformation.kind` is often unset
 * (scip-typescript 0.4.0 never sets it): then the signature's first word decides, then the descriptor's
 * suffix (`#` a type, `().` a method or function, `.` a property or variable, `/` a namespace).
 */
export function kindOfSymbol(symbol: string, signature: string | undefined): LspSymbolKind {
  if (isConstructor(symbol)) return 'constructor'
  if (signature !== undefined) for (const [pattern, kind] of kindBySignature) if (pattern.test(signature)) return kind
  const { descriptors } = parseSymbol(symbol)
  const last = descriptors[descriptors.length - 1]
  const inType = descriptors[descriptors.length - 2]?.suffix === 'type'
  switch (last?.suffix) {
    case 'type':
      return 'class'
    case 'method':
      return inType ? 'method' : 'function'
    case 'term':
      return inType ? 'property' : 'variable'
    case 'namespace':
      return 'namespace'
    case 'typeParameter':
      return 'typeParameter'
    case 'macro':
      return 'function'
    case 'meta':
      return 'property'
    case 'parameter':
    case undefined:
      return 'variable'
  }
}
