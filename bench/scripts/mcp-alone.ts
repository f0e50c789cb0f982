// The MCP layer's own increment measured alone: `codeseam mcp` (the built CLI, over stdio, with the SDK client)
// against the tools layer on an in-process host of its own, query by query, alternating, on a generated
// 50-file workspace. Unlike the full bench, neither side shares a server another layer has just woken.
//   node --import ./bench/register.mjs bench/scripts/mcp-alone.ts      (from the repository root; ROUNDS=200 by default)
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { callTool, readTools, toolContext } from '@codeseam/tool-lsp'

import { startHostedLsp } from '../src/layers/ctx-lsp-layer.js'
import { toolCallFor } from '../src/layers/tool-calls.js'
import { generatedReadMix } from '../src/read-mix.js'
import { writeWorkspace } from '../src/workspace-generator.js'

const cli = fileURLToPath(new URL('../../packages/lsp-mcp/dist/cli.js', import.meta.url))
const rounds = Number(process.env['ROUNDS'] ?? 200)
const workspace = await writeWorkspace(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-mcp-alone-')), 'ts-50', 50)
const queries = generatedReadMix(workspace)

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, 'mcp', '--root', workspace.root, '--trust', 'trusted', '--read-only'],
  cwd: workspace.root,
  stderr: 'ignore',
})
const client = new Client({ name: 'codeseam-mcp-alone', version: '0.0.0' })
await client.connect(transport)
await client.listTools()
const hosted = await startHostedLsp(workspace.root, { idleTtlMs: 0, otherPids: () => [] })
const byName = new Map(readTools.map((tool) => [tool.name, tool]))

type Query = (typeof queries)[number]
const inProcess = async (query: Query) => {
  const call = toolCallFor(query)
  const outcome = await callTool(byName.get(call.name)!, call.arguments, toolContext(hosted.lsp, { signal: new AbortController().signal }))
  if (!outcome.ok) throw new Error(`${call.name}: ${outcome.text}`)
}
const overMcp = async (query: Query) => {
  const call = toolCallFor(query)
  const result = await client.callTool({ name: call.name, arguments: call.arguments })
  if (result.isError === true) throw new Error(`${call.name} over MCP failed`)
}
for (let i = 0; i < 40; i++) {
  for (const query of queries) {
    await inProcess(query)
    await overMcp(query)
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const median = (xs: number[]) => sorted(xs)[xs.length >> 1]!
const p95 = (xs: number[]) => sorted(xs)[Math.floor(0.95 * (xs.length - 1))]!
const ms = (n: number) => `${n.toFixed(3)} ms`
const all: number[] = []
for (const query of queries) {
  const diff: number[] = []
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so neither always follows the other.
    const first = round % 2 === 0
    let started = performance.now()
    if (first) await inProcess(query)
    else await overMcp(query)
    const a = performance.now() - started
    started = performance.now()
    if (first) await overMcp(query)
    else await inProcess(query)
    const b = performance.now() - started
    diff.push(first ? b - a : a - b)
  }
  all.push(...diff)
  console.log(`${query.operation.padEnd(16)} mcp − tools median ${ms(median(diff))}  p95 ${ms(p95(diff))}`)
}
console.log(`mix              mcp − tools median ${ms(median(all))}  p95 ${ms(p95(all))}  (${rounds} rounds per query)`)
await client.close()
await hosted.dispose()
process.exit(0)
