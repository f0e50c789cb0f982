import type { LspDocumentSymbol } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { readableOutline } from '../src/readable-outline.js'

// Issue 32: outlines began with every import binding as a variable, named a TypeScript type alias a class, and
// listed Python parameters as variables. Symbols here are as the servers answer (found by text in the source).

function at(text: string, needle: string, occurrence = 1): { line: number; character: number } {
  let index = -1
  for (let n = 0; n < occurrence; n++) index = text.indexOf(needle, index + 1)
  if (index < 0) throw new Error(`${needle} not in the text`)
  const before = text.slice(0, index).split('\n')
  return { line: before.length - 1, character: before.at(-1)?.length ?? 0 }
}

function symbol(
  text: string,
  name: string,
  kind: LspDocumentSymbol['kind'],
  options: { occurrence?: number; to?: string; children?: LspDocumentSymbol[] } = {},
): LspDocumentSymbol {
  const start = at(text, name, options.occurrence)
  const end = options.to === undefined ? { line: start.line, character: start.character + name.length } : at(text, options.to)
  return {
    name,
    kind,
    range: { start, end },
    selectionRange: { start, end: { line: start.line, character: start.character + name.length } },
    children: options.children ?? [],
  }
}

describe('readableOutline', () => {
  it('leaves TypeScript import bindings out (one- and multi-line imports), and names a type alias', () => {
    const text =
      "import { readFileSync } from 'node:fs'\nimport {\n  join,\n  dirname,\n} from 'node:path'\nexport type Point = { x: number }\nexport class Box {}\nexport const size = 3\n"
    const outline = readableOutline(
      [
        symbol(text, 'readFileSync', 'variable'),
        symbol(text, 'join', 'variable'),
        symbol(text, 'dirname', 'variable'),
        symbol(text, 'Point', 'class'),
        symbol(text, 'Box', 'class'),
        symbol(text, 'size', 'variable'),
      ],
      text,
    )
    expect(outline.symbols.map((s) => `${s.kind} ${s.name}`)).toEqual(['typeAlias Point', 'class Box', 'variable size'])
    expect(outline).toMatchObject({ imports: 3, parameters: 0 })
  })

  it("leaves a Python function's parameters out, keeping its local variables and nested functions", () => {
    const text =
      'def echo(echo: str, times: int = 1) -> str:\n    local = echo * times\n    def inner(x):\n        return x\n    return local\n'
    const outline = readableOutline(
      [
        symbol(text, 'echo', 'function', {
          to: 'return local',
          children: [
            symbol(text, 'echo', 'variable', { occurrence: 2 }),
            symbol(text, 'times', 'variable'),
            symbol(text, 'local', 'variable'),
            symbol(text, 'inner', 'function', { to: 'return x', children: [symbol(text, 'x', 'variable')] }),
          ],
        }),
      ],
      text,
    )
    expect(outline.symbols[0]?.children.map((s) => s.name)).toEqual(['local', 'inner'])
    expect(outline.symbols[0]?.children[1]?.children).toEqual([])
    expect(outline).toMatchObject({ imports: 0, parameters: 3 })
  })
})
