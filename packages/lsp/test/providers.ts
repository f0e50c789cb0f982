import { resultMeta, type LspOperation, type LspProvider, type LspQueryResult } from '../src/index.js'

/** A small custom provider for registry tests: answers every request with `answer(request)`. */
export function staticProvider(
  id: string,
  extensions: Record<string, string>,
  options: { operations?: LspOperation[]; answer?: (request: { operation: LspOperation }) => LspQueryResult } = {},
): LspProvider & { calls: { operation: LspOperation; languageId: string; path?: string }[]; disposed: number } {
  const calls: { operation: LspOperation; languageId: string; path?: string }[] = []
  const provider = {
    id,
    extensions,
    operations: options.operations ?? ['definition', 'references', 'hover', 'workspaceSymbols', 'diagnostics'],
    calls,
    disposed: 0,
    async query(request: { operation: LspOperation; languageId: string; path?: string }) {
      calls.push({ operation: request.operation, languageId: request.languageId, ...(request.path ? { path: request.path } : {}) })
      if (options.answer) return options.answer(request)
      switch (request.operation) {
        case 'hover':
          return { kind: 'hover', hover: { contents: `${id} hover`, format: 'plaintext' }, meta: resultMeta(id) }
        case 'workspaceSymbols':
          return { kind: 'workspaceSymbols', symbols: [], meta: resultMeta(id) }
        case 'diagnostics':
          return { kind: 'diagnostics', files: [], coverage: { analysed: [`/${id}`], complete: true }, meta: resultMeta(id) }
        default:
          return { kind: 'locations', locations: [], meta: resultMeta(id) }
      }
    },
    dispose() {
      provider.disposed++
    },
  }
  return provider as never
}
