import { bare, check, covers, describeSymbols, expect } from './check-kit.js'

// Checks that a provider lists symbols: the outline of a document and a search across the workspace.

export const documentSymbolsCheck = check({
  id: 'documentSymbols',
  name: 'document symbols form a tree with kinds',
  needs: ['documentSymbols'],
  uses: ['documentSymbols'],
  async run({ fixture, root, query }, { documentSymbols }) {
    const result = await query({ operation: 'documentSymbols', root, path: fixture.path(documentSymbols.file) })
    for (const expected of documentSymbols.symbols) {
      const symbol = result.symbols.find((s) => s.name === expected.name || bare(s.name) === expected.name)
      expect(symbol?.kind === expected.kind, `${expected.name} should be a top-level ${expected.kind}: ${describeSymbols(result.symbols)}`)
      for (const child of expected.children ?? []) {
        expect(
          symbol.children.some((c) => (c.name === child.name || bare(c.name) === child.name) && c.kind === child.kind),
          `${expected.name} should contain the ${child.kind} ${child.name}: ${describeSymbols(result.symbols)}`,
        )
      }
    }
    for (const s of result.symbols) {
      expect(covers(s.range, s.selectionRange.start.line), `${s.name}: selectionRange outside range`)
    }
    return result.symbols.map((s) => s.name).join(', ')
  },
})

export const workspaceSymbolsCheck = check({
  id: 'workspaceSymbols',
  name: 'workspace symbols find a type by name',
  needs: ['workspaceSymbols'],
  uses: ['workspaceSymbol'],
  async run({ fixture, root, query }, { workspaceSymbol }) {
    const result = await query({ operation: 'workspaceSymbols', root, query: workspaceSymbol.query })
    expect(
      result.symbols.some(
        (s) => s.name === workspaceSymbol.name && s.kind === workspaceSymbol.kind && s.location.path === fixture.path(workspaceSymbol.file),
      ),
      `${workspaceSymbol.kind} ${workspaceSymbol.name} of ${workspaceSymbol.file} not found: ${JSON.stringify(result.symbols.map((s) => [s.name, s.kind]))}`,
    )
    return `${result.symbols.length} symbols`
  },
})
