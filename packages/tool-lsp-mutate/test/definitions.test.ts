import { describe, expect, test } from 'vitest'
import { createLsp } from '@codeseam/lsp'
import { callTool, decodeToolInput, toAnthropicTool, toMcpTool, toOpenAiTool, toolContext } from '@codeseam/tool-lsp'
import { Schema } from 'effect'

import { MutationSession, mutationTools } from '../src/index.js'
import { ReceiptOutput } from '../src/tools/schemas.js'
import { memoryProvider, MemoryWorkspace } from './memory.js'

/** The mutating tools in the neutral definition format: every exporter accepts them unchanged. */

const tools = mutationTools({ autoApprove: true, lock: false })

describe('tool definitions', () => {
  test('six tools, each exportable to MCP, OpenAI and Anthropic, all mutating', () => {
    expect(tools.map((t) => t.name)).toEqual([
      'code_rename',
      'code_actions',
      'code_format',
      'code_insert',
      'code_replace',
      'code_replace_batch',
    ])
    for (const tool of tools) {
      const mcp = toMcpTool(tool)
      expect(mcp.name).toBe(tool.name)
      expect(JSON.stringify(mcp.inputSchema)).toContain('dryRun')
      expect(JSON.stringify(mcp.inputSchema)).toContain('expectedHashes')
      expect(toOpenAiTool(tool)).toBeDefined()
      expect(toAnthropicTool(tool).name).toBe(tool.name)
      expect(tool.hints.readOnly).toBe(false)
    }
  })

  test('argument decoding names the bad field', () => {
    const insert = tools.find((t) => t.name === 'code_insert')!
    expect(() => decodeToolInput(insert, { target: { path: 'a.ts', symbol: 'x' }, position: 'middle', text: 'y' })).toThrow(/position/)
  })

  test('a receipt from a tool validates against the exported output schema', async () => {
    const lsp = createLsp()
    const workspace = new MemoryWorkspace('/mem/defs', { 'a.ts': 'const   a=1\n' })
    lsp.registerWorkspace(workspace)
    lsp.registerProvider(memoryProvider(workspace))
    const replace = mutationTools(new MutationSession({ autoApprove: true, lock: false })).find((t) => t.name === 'code_replace')!
    const outcome = await callTool(replace, { target: { path: 'a.ts', line: 1 }, text: 'const a = 1', dryRun: true }, toolContext(lsp))
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    const receipt = outcome.structured.receipt
    expect(Schema.decodeUnknownExit(ReceiptOutput)(receipt)._tag).toBe('Success')
    expect(Schema.decodeUnknownExit(replace.output)(outcome.structured)._tag).toBe('Success')
    expect(outcome.text).toContain('-const   a=1')
    expect(outcome.text).toContain('+const a = 1')
    await lsp.dispose()
  })
})
