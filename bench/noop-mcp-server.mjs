// The MCP SDK's own share: a no-op MCP server — the official SDK's low-level `Server` over stdio with one tool
// that returns a constant small result. The bench calls it from the same SDK client the MCP layer uses, so
// the MCP layer's increment can be read net of the SDK's own work (bench/src/scenarios/startup.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const result = { content: [{ type: 'text', text: 'ok' }], structuredContent: { ok: true } }
const server = new Server({ name: 'codeseam-bench-noop', version: '0.0.0' }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'noop', description: 'Returns a constant.', inputSchema: { type: 'object', properties: {} } }],
}))
server.setRequestHandler(CallToolRequestSchema, async () => result)
await server.connect(new StdioServerTransport())
