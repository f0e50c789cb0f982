// Registers a custom provider with ctx.lsp and queries through it: the whole seam in a few lines.
// Run: bash scripts/run.sh example
import { createLsp, resultMeta } from '@codeseam/lsp'

const lsp = createLsp()
lsp.registerProvider({
  id: 'toy-markdown',
  extensions: { '.md': 'markdown' },
  operations: ['hover'],
  async query(request) {
    return {
      kind: 'hover',
      hover: { contents: `${request.languageId} file, line ${request.position.line + 1}`, format: 'plaintext' },
      meta: resultMeta('toy-markdown'),
    }
  },
})

const result = await lsp.query({ operation: 'hover', root: process.cwd(), path: 'README.md', position: { line: 0, character: 0 } })
console.log(`${result.kind} from ${result.meta.providerId}: ${result.hover?.contents}`)
try {
  await lsp.query({ operation: 'references', root: process.cwd(), path: 'README.md', position: { line: 0, character: 0 } })
} catch (error) {
  console.log(`references → ${error.code}: ${error.message}`)
}
await lsp.dispose()
