import { describe, expect, it } from 'vitest'

import { createLsp, LspError, resolveTarget, resultMeta, type LspDocumentSymbol, type LspErrorCode, type LspService } from '../src/index.js'
import { createMemoryWorkspace } from '../src/testing/index.js'
import { flattenSymbols } from '../src/target.js'

const source = [
  'export class Router {',
  '  match(path: string) {',
  '    return path',
  '  }',
  '}',
  'export class Server {',
  '  match(host: string) { return host }',
  '  listen() {}',
  '}',
  'export const café = "𝒳" + café2',
  '\tconst tabbed = 1',
].join('\n')

/** Finds a symbol's ranges by text in `source`, so the outline below is not hand-counted. */
function rangeOf(text: string, name: string, endText: string) {
  const lines = source.split('\n')
  const line = lines.findIndex((l) => l.includes(text))
  const endLine = lines.findIndex((l, i) => i >= line && l.includes(endText))
  const character = (lines[line] ?? '').indexOf(name)
  return {
    range: { start: { line, character: 0 }, end: { line: endLine, character: (lines[endLine] ?? '').length } },
    selectionRange: { start: { line, character }, end: { line, character: character + name.length } },
  }
}

function symbol(
  name: string,
  kind: LspDocumentSymbol['kind'],
  text: string,
  endText: string,
  children: LspDocumentSymbol[] = [],
): LspDocumentSymbol {
  return { name, kind, ...rangeOf(text, name, endText), children }
}

const outline: LspDocumentSymbol[] = [
  symbol('Router', 'class', 'class Router', '}', [symbol('match', 'method', 'match(path', '  }')]),
  symbol('Server', 'class', 'class Server', 'listen', [
    symbol('match', 'method', 'match(host', 'match(host'),
    symbol('listen', 'method', 'listen', 'listen'),
  ]),
  symbol('café', 'constant', 'const café', 'const café'),
]

function setup(): { lsp: LspService; symbolCalls: () => number } {
  const lsp = createLsp()
  let calls = 0
  lsp.registerProvider({
    id: 'outline',
    extensions: { '.ts': 'typescript' },
    operations: ['documentSymbols'],
    query: async () => {
      calls++
      return { kind: 'documentSymbols', symbols: outline, meta: resultMeta('outline') } as never
    },
  })
  lsp.registerWorkspace(createMemoryWorkspace({ id: 'app', root: '/work/app', files: { 'src/router.ts': source, 'shared.ts': 'a' } }))
  lsp.registerWorkspace(createMemoryWorkspace({ id: 'lib', root: '/work/lib', files: { 'shared.ts': 'b' } }))
  return { lsp, symbolCalls: () => calls }
}

async function rejects(promise: Promise<unknown>, code: LspErrorCode): Promise<LspError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LspError)
  expect((error as LspError).code).toBe(code)
  return error as LspError
}

describe('resolveTarget', () => {
  it('finds a dotted symbol and lands on its name', async () => {
    const { lsp } = setup()
    const target = await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router.match' })
    expect(target.resolvedBy).toBe('symbol')
    expect(target.symbol?.qualifiedName).toBe('Router.match')
    expect(target.lines.lineText(target.position.line).slice(target.position.character)).toMatch(/^match\(path/)
    expect(target.rootId).toBe('app')
    expect(target.displayPath).toBe('src/router.ts')
  })

  it('reports AMBIGUOUS with candidates, and firstMatch takes the first', async () => {
    const { lsp } = setup()
    const error = await rejects(resolveTarget(lsp, { path: 'src/router.ts', symbol: 'match' }), 'AMBIGUOUS')
    expect(error.data.candidates?.map((c) => c['qualifiedName'])).toEqual(['Router.match', 'Server.match'])
    expect(error.data.candidates?.[1]).toMatchObject({ kind: 'method', path: 'src/router.ts', container: 'Server' })
    const first = await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'match' }, { firstMatch: true })
    expect(first.symbol?.qualifiedName).toBe('Router.match')
  })

  it('narrows by kind and by line', async () => {
    const { lsp } = setup()
    const line = source.split('\n').findIndex((l) => l.includes('match(host')) + 1
    const byLine = await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'match', line })
    expect(byLine.symbol?.qualifiedName).toBe('Server.match')
    const byKind = await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router', kind: 'class' })
    expect(byKind.symbol?.kind).toBe('class')
    await rejects(resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router', kind: 'function' }), 'NOT_FOUND')
  })

  it('reports NOT_FOUND with the nearest names', async () => {
    const { lsp } = setup()
    const error = await rejects(resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router.mtch' }), 'NOT_FOUND')
    expect(error.data.nearest?.[0]).toMatch(/match$/)
    expect(error.message).toContain('nearest')
  })

  it('resolves line + matchText, and a miss quotes the line', async () => {
    const { lsp } = setup()
    const line = source.split('\n').findIndex((l) => l.includes('café2')) + 1
    const hit = await resolveTarget(lsp, { path: 'src/router.ts', line, matchText: 'café2' })
    expect(hit.resolvedBy).toBe('matchText')
    // UTF-16: "𝒳" is two code units, so the column is the JS string index.
    expect(hit.position.character).toBe(source.split('\n')[line - 1]!.indexOf('café2'))
    const miss = await rejects(resolveTarget(lsp, { path: 'src/router.ts', line, matchText: 'nope' }), 'NOT_FOUND')
    expect(miss.message).toContain('export const café')
  })

  it('resolves line + column and line alone (first non-blank, tabs count as one column)', async () => {
    const { lsp } = setup()
    const tabbedLine = source.split('\n').length
    const byLine = await resolveTarget(lsp, { path: 'src/router.ts', line: tabbedLine })
    expect(byLine.position).toEqual({ line: tabbedLine - 1, character: 1 })
    const byColumn = await resolveTarget(lsp, { path: 'src/router.ts', line: 2, column: 3 })
    expect(byColumn.position).toEqual({ line: 1, character: 2 })
    await rejects(resolveTarget(lsp, { path: 'src/router.ts', line: 2, column: 99 }), 'INVALID_ARGUMENT')
    await rejects(resolveTarget(lsp, { path: 'src/router.ts', line: 999 }), 'INVALID_ARGUMENT')
    await rejects(resolveTarget(lsp, { path: 'src/router.ts' }), 'INVALID_ARGUMENT')
  })

  it('a relative path in several roots is AMBIGUOUS until rootId picks one', async () => {
    const { lsp } = setup()
    const error = await rejects(resolveTarget(lsp, { path: 'shared.ts', line: 1 }), 'AMBIGUOUS')
    expect(error.data.candidates?.map((c) => c['rootId'])).toEqual(['app', 'lib'])
    const picked = await resolveTarget(lsp, { path: 'shared.ts', rootId: 'lib', line: 1 })
    expect(picked.document.text).toBe('b')
    await rejects(resolveTarget(lsp, { path: 'shared.ts', rootId: 'nope', line: 1 }), 'NOT_FOUND')
  })

  it('refuses paths outside every root and reports missing files', async () => {
    const { lsp } = setup()
    await rejects(resolveTarget(lsp, { path: '../secret.ts', line: 1 }), 'OUTSIDE_WORKSPACE')
    await rejects(resolveTarget(lsp, { path: '/etc/passwd', line: 1 }), 'OUTSIDE_WORKSPACE')
    await rejects(resolveTarget(lsp, { path: 'src/missing.ts', line: 1 }), 'NOT_FOUND')
  })

  it('caches document symbols per content hash', async () => {
    const { lsp, symbolCalls } = setup()
    await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router' })
    await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Server.listen' })
    expect(symbolCalls()).toBe(1)
    const workspace = lsp.workspace('app')!
    await workspace.applyEdit({
      operations: [
        {
          type: 'edit',
          uri: '',
          path: '/work/app/src/router.ts',
          version: null,
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// changed\n' }],
        },
      ],
    })
    await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router' })
    expect(symbolCalls()).toBe(2)
  })

  it('does not cache an outline computed while the server was still indexing', async () => {
    const lsp = createLsp()
    const statuses: Array<'indexing' | 'ready'> = ['indexing', 'ready', 'ready']
    let calls = 0
    lsp.registerProvider({
      id: 'warming',
      extensions: { '.ts': 'typescript' },
      operations: ['documentSymbols'],
      query: async () => {
        const status = statuses[calls++] ?? 'ready'
        return { kind: 'documentSymbols', symbols: status === 'indexing' ? [] : outline, meta: resultMeta('warming', { status }) } as never
      },
    })
    lsp.registerWorkspace(createMemoryWorkspace({ id: 'app', root: '/work/app', files: { 'src/router.ts': source } }))
    await rejects(resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router' }), 'NOT_FOUND')
    expect((await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router' })).symbol?.name).toBe('Router')
    await resolveTarget(lsp, { path: 'src/router.ts', symbol: 'Router' })
    expect(calls).toBe(2)
  })
})

describe('qualified names of Go methods and Rust impl members', () => {
  const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } })
  const symbol = (name: string, kind: LspDocumentSymbol['kind'], line: number, children: LspDocumentSymbol[] = []): LspDocumentSymbol => ({
    name,
    kind,
    range: at(line),
    selectionRange: at(line),
    children,
  })

  it("a gopls method `(*Router).Match` is Router.Match; a generic receiver's type parameters are not part of it", () => {
    const flat = flattenSymbols([
      symbol('Router', 'struct', 0),
      symbol('(*Router).Match', 'method', 2),
      symbol('(List[T]).Push', 'method', 4),
    ])
    expect(flat.map((s) => [s.qualifiedName, s.container])).toEqual([
      ['Router', undefined],
      ['Router.Match', 'Router'],
      ['List.Push', 'List'],
    ])
  })

  it("a rust-analyzer impl block keeps its name; its methods are the implemented type's", () => {
    const flat = flattenSymbols([
      symbol('Circle', 'struct', 0),
      symbol('impl Shape for Circle', 'object', 2, [symbol('area', 'method', 3)]),
      symbol('impl<T: Buf> Buf for Take<T>', 'object', 5, [symbol('remaining', 'method', 6)]),
      symbol('impl Circle', 'object', 8, [symbol('new', 'function', 9)]),
    ])
    expect(flat.map((s) => s.qualifiedName)).toEqual([
      'Circle',
      'impl Shape for Circle',
      'Circle.area',
      'impl<T: Buf> Buf for Take<T>',
      'Take.remaining',
      'impl Circle',
      'Circle.new',
    ])
  })
})
