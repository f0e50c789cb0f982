// The tools in your own agent: real language servers behind ctx.lsp, tool schemas for your model's API,
// and one tool call. Run from the repository root after `pnpm build`:
//   node packages/lsp-mcp/examples/harness.mjs [ROOT]
import { createLsp } from '@codeseam/lsp'
import { createLocalHost } from '@codeseam/lsp-local'
import { callTool, readTools, toAnthropicTool, toolContext } from '@codeseam/tool-lsp'

const root = process.argv[2] ?? process.cwd()
const lsp = createLsp()
const host = await createLocalHost()
await host.attach(lsp, [{ root }]) // untrusted unless { root, trust: 'trusted' }
try {
  const schemas = readTools.map((tool) => toAnthropicTool(tool)) // or toOpenAiTool / toMcpTool
  console.log(`${schemas.length} tool schemas: ${schemas.map((s) => s.name).join(', ')}`)
  const navigate = readTools.find((tool) => tool.name === 'code_navigate')
  const outcome = await callTool(
    navigate,
    { target: { path: 'packages/lsp/src/service.ts', symbol: 'createLsp' }, kind: 'references', limit: 5 },
    toolContext(lsp),
  )
  console.log(outcome.text)
} finally {
  await host.dispose()
  await lsp.dispose()
}
