// `node packages/lsp-mcp/scripts/example-trace.mjs [OUT_DIR]`: the example trace in docs/observability.md.
//
// Starts the built `codeseam mcp` over this repository with `--otel-endpoint` pointed at a receiver in this
// process, makes the README's main-job call (references of `createLsp`) on a cold server, closes the session
// (which flushes the exporter), keeps that call's trace as OTLP JSON (OUT_DIR/example-trace.json) and draws
// it with scripts/trace-svg.mjs (OUT_DIR/observability-trace.svg). OUT_DIR defaults to docs/. Needs
// `pnpm build` (or `npx tsup` in packages/lsp-mcp) first.
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const cli = join(repo, 'packages/lsp-mcp/dist/cli.js')
const out = resolve(process.argv[2] ?? join(repo, 'docs'))
if (!existsSync(cli)) {
  console.error(`${cli} does not exist: run \`pnpm build\` first`)
  process.exit(1)
}

/** Every OTLP/HTTP JSON trace payload posted to the receiver. */
const payloads = []
const receiver = createServer((request, response) => {
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    let body = Buffer.concat(chunks)
    if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
    if (request.url === '/v1/traces') payloads.push(JSON.parse(body.toString('utf8')))
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
})
await new Promise((done) => receiver.listen(0, '127.0.0.1', done))
const { port } = receiver.address()

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, 'mcp', '--daemon', 'never', '--root', repo, '--otel-endpoint', `http://127.0.0.1:${port}`],
  env: { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '50' },
  stderr: 'inherit',
})
const client = new Client({ name: 'example-trace', version: '1.0.0' })
await client.connect(transport)
const result = await client.callTool({
  name: 'code_navigate',
  arguments: { target: { path: 'packages/lsp/src/service.ts', symbol: 'createLsp' }, kind: 'references' },
})
const summary = result.content?.[0]?.text?.split('\n')[0] ?? ''
// Closing the session ends the server, which flushes every span before it exits.
await client.close()
receiver.close()

const spans = payloads.flatMap((p) => p.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)))
const tool = spans.find(
  (s) => s.name === 'codeseam.tool' && s.attributes.some((a) => a.key === 'codeseam.tool.name' && a.value.stringValue === 'code_navigate'),
)
if (tool === undefined) {
  console.error(`no code_navigate tool span arrived (${spans.length} spans in ${payloads.length} payloads)`)
  process.exit(1)
}
// Only that call's trace, in one payload.
const trace = {
  resourceSpans: payloads.flatMap((p) =>
    p.resourceSpans.map((rs) => ({
      ...rs,
      scopeSpans: rs.scopeSpans.map((ss) => ({ ...ss, spans: ss.spans.filter((s) => s.traceId === tool.traceId) })),
    })),
  ),
}
const json = join(out, 'example-trace.json')
writeFileSync(json, `${JSON.stringify(trace, null, 2)}\n`)
const drawn = spawnSync(
  process.execPath,
  [
    join(repo, 'scripts/trace-svg.mjs'),
    json,
    join(out, 'observability-trace.svg'),
    '--title',
    'code_navigate references of createLsp, cold server (codeseam repository)',
  ],
  { stdio: 'inherit' },
)
console.log(`answer: ${summary}`)
process.exit(drawn.status ?? 1)
