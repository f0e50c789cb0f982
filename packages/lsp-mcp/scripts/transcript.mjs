#!/usr/bin/env node
// Records a real MCP session with `codeseam mcp` (tools/list and three calls) as a transcript of the
// JSON-RPC messages both ways. Usage: node scripts/transcript.mjs [ROOT] (default: a copy of the test fixture).
// Needs a build: `pnpm build` (or `npx tsup` in this package).
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const here = nodePath.dirname(fileURLToPath(import.meta.url))
const cli = nodePath.join(here, '..', 'dist', 'cli.js')
let root = process.argv[2]
let temp
if (root === undefined) {
  temp = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-transcript-'))
  cpSync(nodePath.join(here, '..', 'test', 'fixtures', 'workspace'), temp, { recursive: true })
  root = temp
}

const maxLine = Number(process.env.TRANSCRIPT_MAX_CHARS ?? 1200)
const show = (direction, message) => {
  const text = JSON.stringify(message)
  process.stdout.write(`${direction} ${text.length > maxLine ? `${text.slice(0, maxLine)}… [${text.length} chars]` : text}\n`)
}

const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--root', root], stderr: 'pipe' })
let stderr = ''
transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')))
const send = transport.send.bind(transport)
transport.send = async (message) => {
  show('→', message)
  return send(message)
}
const client = new Client({ name: 'transcript', version: '1.0.0' }, { capabilities: {} })
const connected = client.connect(transport)
const receive = transport.onmessage
transport.onmessage = (message) => {
  show('←', message)
  receive?.(message)
}
await connected

const { tools } = await client.listTools()
process.stdout.write(`# tools/list: ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`)
const calls = [
  { name: 'code_navigate', arguments: { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, kind: 'references' } },
  { name: 'code_hover', arguments: { target: { path: 'src/shapes.ts', symbol: 'Circle.area' } } },
  { name: 'code_diagnostics', arguments: { path: 'src/broken.ts' } },
]
for (const call of calls) await client.callTool(call, undefined, { onprogress: () => {} })
await client.close()
process.stdout.write(`# server stderr: ${stderr.trim()}\n`)
if (temp !== undefined) rmSync(temp, { recursive: true, force: true })
