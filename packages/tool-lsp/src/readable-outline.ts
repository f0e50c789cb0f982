import { TextLines, type LspDocumentSymbol } from '@codeseam/lsp'

/*
 * What a server's outline says that an outline should not (issue 32): the TypeScript server lists every import
 * binding as a variable and a `type` alias as a class; pyright lists a function's parameters as its variables.
 * The outline a tool returns leaves the imports and parameters out (counted, and said) and names a type alias as one.
 */

/** A symbol as the outline shows it: the server's, with a type alias named as such. */
export type ReadableSymbol = Omit<LspDocumentSymbol, 'kind' | 'children'> & {
  readonly kind: LspDocumentSymbol['kind'] | 'typeAlias'
  readonly children: ReadonlyArray<ReadableSymbol>
}

export interface ReadableOutline {
  readonly symbols: ReadonlyArray<ReadableSymbol>
  /** Import bindings left out. */
  readonly imports: number
  /** Parameters left out. */
  readonly parameters: number
}

/** The lines of import statements (`import …`, `from … import …`, `export … from`), multi-line ones whole. */
function importLines(lines: ReadonlyArray<string>): Set<number> {
  const out = new Set<number>()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (!/^\s*(import\s|from\s+\S+\s+import\s|export\s+(\*|\{[^}]*\}?)\s*(from\b|$))/.test(line) && !/^\s*export\s+\{[^}]*$/.test(line))
      continue
    let depth = 0
    let j = i
    for (; j < lines.length; j++) {
      for (const c of lines[j] ?? '') depth += c === '{' || c === '(' ? 1 : c === '}' || c === ')' ? -1 : 0
      out.add(j)
      if (depth <= 0) break
    }
    i = j
  }
  return out
}

/** The offsets of a function's parameter list: from the first `(` after its name to the matching `)`. */
function parameterSpan(text: string, lines: TextLines, symbol: LspDocumentSymbol): [number, number] | undefined {
  const from = lines.offsetAt(symbol.selectionRange.end)
  const open = text.indexOf('(', from)
  const end = lines.offsetAt(symbol.range.end)
  if (open < 0 || open > end) return undefined
  let depth = 0
  for (let i = open; i < Math.min(text.length, end); i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return [open, i]
  }
  return undefined
}

const callables = new Set(['function', 'method', 'constructor'])
const bindings = new Set(['variable', 'constant', 'module', 'property'])

export function readableOutline(symbols: ReadonlyArray<LspDocumentSymbol>, text: string): ReadableOutline {
  const lines = new TextLines(text)
  const textLines = text.split('\n')
  const imports = importLines(textLines)
  let importCount = 0
  let parameterCount = 0
  const visit = (
    list: ReadonlyArray<LspDocumentSymbol>,
    parent: LspDocumentSymbol | undefined,
    span: [number, number] | undefined,
  ): ReadableSymbol[] =>
    list.flatMap((symbol): ReadableSymbol[] => {
      const line = symbol.selectionRange.start.line
      if (parent === undefined && bindings.has(symbol.kind) && imports.has(line)) {
        importCount++
        return []
      }
      if (span !== undefined && symbol.kind === 'variable') {
        const at = lines.offsetAt(symbol.selectionRange.start)
        if (at > span[0] && at < span[1]) {
          parameterCount++
          return []
        }
      }
      const lineText = textLines[line] ?? ''
      const before = lineText.slice(0, symbol.selectionRange.start.character)
      const alias = symbol.kind === 'class' && /\btype\s+$/.test(before)
      const childSpan = callables.has(symbol.kind) ? parameterSpan(text, lines, symbol) : undefined
      return [{ ...symbol, kind: alias ? 'typeAlias' : symbol.kind, children: visit(symbol.children, symbol, childSpan) }]
    })
  const readable = visit(symbols, undefined, undefined)
  return { symbols: readable, imports: importCount, parameters: parameterCount }
}
