import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createLsp, LspError, pathToUri, resultMeta, type LspCodeAction, type LspProvider, type LspService } from '@codeseam/lsp'
import { callTool, toolContext } from '@codeseam/tool-lsp'

import { MutationSession, mutationTools, type ApprovalRequest, type MutationReceipt } from '../src/index.js'
import { MemoryWorkspace } from './memory.js'

/**
 * code_actions rules that no real fixture server offers on demand: a command-only action whose command asked
 * the client to apply an edit (captured into the transaction, explicit approval), and a disabled action.
 */

const root = '/mem/actions'
const file = `${root}/a.ts`
let lsp: LspService
let workspace: MemoryWorkspace
const commandEdit = {
  operations: [
    {
      type: 'edit' as const,
      uri: pathToUri(file),
      path: file,
      version: null,
      edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// generated\n' }],
    },
  ],
}
const actions: LspCodeAction[] = [
  { id: 'act-cmd', title: 'Generate header', kind: 'source', hasEdit: false, hasCommand: true },
  {
    id: 'act-off',
    title: 'Extract function',
    kind: 'refactor.extract',
    disabledReason: 'Select an expression first',
    hasEdit: true,
    hasCommand: false,
  },
]

function provider(): LspProvider {
  return {
    id: 'actions',
    extensions: { '.ts': 'typescript' },
    operations: ['codeActions', 'resolveCodeAction'],
    async query(request) {
      if (request.operation === 'codeActions') return { kind: 'codeActions', actions, meta: resultMeta('actions') } as never
      if (request.operation === 'resolveCodeAction') {
        const action = actions.find((a) => a.id === request.actionId)
        if (action === undefined) throw new LspError('NOT_FOUND', `code action "${request.actionId}" is unknown or expired`)
        if (action.disabledReason !== undefined) throw new LspError('INVALID_ARGUMENT', `disabled: ${action.disabledReason}`)
        return {
          kind: 'codeActionResolution',
          title: action.title,
          edit: { operations: [] },
          command: { title: action.title, command: 'gen.header', result: true, appliedEdits: [commandEdit] },
          meta: resultMeta('actions'),
        } as never
      }
      throw new LspError('UNSUPPORTED_OPERATION', request.operation)
    },
  }
}

beforeEach(() => {
  lsp = createLsp()
  workspace = new MemoryWorkspace(root, { 'a.ts': 'export const a = 1\n' })
  lsp.registerWorkspace(workspace)
  lsp.registerProvider(provider())
})
afterEach(async () => {
  await lsp.dispose()
})

describe('code_actions', () => {
  test('a command-only action: its captured applyEdit is previewed, needs explicit approval even under autoApprove, and is applied in the transaction', async () => {
    const asked: ApprovalRequest[] = []
    const tool = mutationTools(
      new MutationSession({
        autoApprove: true,
        lock: false,
        diagnosticsWaitMs: 100,
        approve: (r) => {
          asked.push(r)
          return 'approve'
        },
      }),
    ).find((t) => t.name === 'code_actions')!
    const outcome = await callTool(tool, { path: 'a.ts', line: 1, apply: 'Generate header' }, toolContext(lsp))
    if (!outcome.ok) throw new Error(outcome.error.message)
    const receipt = outcome.structured.receipt as MutationReceipt
    expect(receipt.status).toBe('applied')
    expect(receipt.command).toMatchObject({ command: 'gen.header' })
    expect(receipt.approval).toMatchObject({ decision: 'approved', explicitRequired: true })
    expect(asked[0]?.explicitReasons[0]).toMatch(/gen\.header/)
    expect(asked[0]?.preview.files[0]?.diff).toContain('+// generated')
    expect(workspace.text('a.ts')).toBe('// generated\nexport const a = 1\n')
  })

  test('without an approval callback the command action is denied even under autoApprove', async () => {
    const tool = mutationTools({ autoApprove: true, lock: false }).find((t) => t.name === 'code_actions')!
    const outcome = await callTool(tool, { path: 'a.ts', line: 1, apply: 'act-cmd' }, toolContext(lsp))
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.error.code).toBe('APPROVAL_DENIED')
    expect(workspace.text('a.ts')).toBe('export const a = 1\n')
  })

  test('a disabled action cannot run, by title or by id; an unknown id lists what exists', async () => {
    const tool = mutationTools({ autoApprove: true, lock: false }).find((t) => t.name === 'code_actions')!
    const byTitle = await callTool(tool, { path: 'a.ts', line: 1, apply: 'Extract function' }, toolContext(lsp))
    expect(byTitle.ok ? undefined : byTitle.error.message).toMatch(/Select an expression first/)
    const listed = await callTool(tool, { path: 'a.ts', line: 1 }, toolContext(lsp))
    expect(listed.ok && listed.text).toContain('disabled: Select an expression first')
    const unknown = await callTool(tool, { path: 'a.ts', line: 1, apply: 'act-gone' }, toolContext(lsp))
    expect(unknown.ok ? undefined : unknown.error.code).toBe('NOT_FOUND')
    expect(unknown.ok ? '' : unknown.error.message).toContain('Generate header')
    expect(workspace.text('a.ts')).toBe('export const a = 1\n')
  })
})
