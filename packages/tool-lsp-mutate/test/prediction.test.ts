import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { builtInFactsFor, createLsp, pathToUri, type LspService, type LspWorkspaceEdit } from '@codeseam/lsp'

import { MutationSession, type ApprovalRequest, type MutationSessionOptions } from '../src/index.js'
import type { RenameIntegrity } from '../src/receipt.js'
import { renderReceipt, summarizeReceipt } from '../src/receipt.js'
import { memoryProvider, MemoryWorkspace } from './memory.js'

/**
 * The engine's checks before writing (RFC 0018), on an in-memory backend whose provider can speculate:
 * predicted diagnostics, the impact set and its cap, and rename integrity's refusal.
 */

const root = '/mem/project'
let lsp: LspService
let workspace: MemoryWorkspace
let provider: ReturnType<typeof memoryProvider>

beforeEach(() => {
  lsp = createLsp()
  workspace = new MemoryWorkspace(root, { 'a.ts': 'const a = 1\n', 'b.ts': 'const b = ERROR\n', 'c.ts': 'use(a)\n', 'd.ts': 'use(a)\n' })
  lsp.registerWorkspace(workspace)
  provider = memoryProvider(workspace)
  lsp.registerProvider(provider)
})
afterEach(async () => {
  await lsp.dispose()
})

function session(options: MutationSessionOptions): MutationSession {
  return new MutationSession({ lock: false, diagnosticsWaitMs: 1_000, ...options })
}

function replaceAll(path: string, oldText: string, newText: string) {
  const absolute = `${root}/${path}`
  return {
    type: 'edit' as const,
    uri: pathToUri(absolute),
    path: absolute,
    version: null,
    edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: oldText.length } }, newText }],
  }
}

const breaking: LspWorkspaceEdit = { operations: [replaceAll('a.ts', 'const a = 1', '// header\nconst a = ERROR')] }

describe('predicted diagnostics', () => {
  test('a dry run predicts what applying introduces, and writes nothing', async () => {
    const compute = async () => ({ edit: breaking, impact: [`${root}/c.ts`] })
    const dry = await session({ autoApprove: true }).run(lsp, { tool: 't', root, dryRun: true, compute })
    expect(dry.status).toBe('previewed')
    expect(workspace.text('a.ts')).toBe('const a = 1\n')
    expect(provider.speculations).toBe(1)
    expect(dry.predicted?.introduced.map((d) => `${d.path}:${d.line} ${d.message}`)).toEqual(['a.ts:2 bad: const a = ERROR'])
    expect(dry.predicted?.checked).toEqual({ files: 2, impact: 1, notChecked: [] })
    expect(renderReceipt(dry)).toContain('would introduce 1 error in 1 file')
    const applied = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute })
    expect(applied.status).toBe('applied')
    const key = (d: { path: string; line: number; severity: string; message: string }) => `${d.path}:${d.line} ${d.severity} ${d.message}`
    expect(applied.diagnostics?.introduced.map(key)).toEqual(dry.predicted?.introduced.map(key))
  })

  test('the approval callback sees the prediction before it decides', async () => {
    let asked: ApprovalRequest | undefined
    const receipt = await session({
      approve: (request) => {
        asked = request
        return { decision: 'deny', reason: 'it breaks a.ts' }
      },
    }).run(lsp, { tool: 't', root, compute: async () => ({ edit: breaking }) })
    expect(receipt.status).toBe('denied')
    expect(asked?.predicted?.introduced).toHaveLength(1)
    expect(workspace.text('a.ts')).toBe('const a = 1\n')
  })

  test('auto-approved changes are not predicted (no one sees a preview): the check after the write stands', async () => {
    const receipt = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute: async () => ({ edit: breaking }) })
    expect(provider.speculations).toBe(0)
    expect(receipt.predicted).toBeUndefined()
    expect(receipt.diagnostics?.introduced).toHaveLength(1)
  })
})

describe('the impact set', () => {
  test('files that used what changed are checked, up to maxCheckedFiles; the rest are named', async () => {
    const receipt = await session({ autoApprove: true, maxCheckedFiles: 2 }).run(lsp, {
      tool: 't',
      root,
      compute: async () => ({ edit: breaking, impact: [`${root}/c.ts`, `${root}/d.ts`, `${root}/a.ts`] }),
    })
    expect(receipt.diagnostics?.files.map((f) => f.path)).toEqual(['a.ts', 'c.ts'])
    expect(receipt.diagnostics?.checked).toEqual({ files: 2, impact: 1, notChecked: ['d.ts'] })
    expect(renderReceipt(receipt)).toContain('not checked (over maxCheckedFiles): 1 — d.ts')
  })
})

describe('rename integrity', () => {
  const integrity: RenameIntegrity = {
    references: 3,
    covered: 2,
    leftBehind: [{ path: 'c.ts', line: 1, column: 5, snippet: 'use(a)' }],
    throughAlias: [],
    names: [{ from: 'a', to: 'b', count: 2 }],
    keptByAlias: [],
    partialAccepted: false,
  }

  test('a use left behind refuses the write with INCOMPLETE_EDIT naming it; a dry run previews it', async () => {
    const compute = async () => ({ edit: breaking, integrity })
    const refused = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute })
    expect(refused.status).toBe('refused')
    expect(refused.error?.code).toBe('INCOMPLETE_EDIT')
    expect(refused.error?.message).toContain('c.ts:1: use(a)')
    expect(refused.integrity?.leftBehind).toHaveLength(1)
    expect(workspace.text('a.ts')).toBe('const a = 1\n')
    const dry = await session({ autoApprove: true }).run(lsp, { tool: 't', root, dryRun: true, compute })
    expect(dry.status).toBe('previewed')
    expect(dry.notes.join('\n')).toMatch(/applying will be refused/)
  })

  test('an accepted partial rename is written and says so', async () => {
    const receipt = await session({ autoApprove: true }).run(lsp, {
      tool: 't',
      root,
      compute: async () => ({ edit: breaking, integrity: { ...integrity, partialAccepted: true } }),
    })
    expect(receipt.status).toBe('applied')
    expect(receipt.notes.join('\n')).toMatch(/partial rename accepted/)
  })
})

describe('what the diagnostics cannot see', () => {
  test("a provider's diagnosticsLimit is quoted in the predicted and the applied receipt, and only then", async () => {
    await lsp.dispose()
    lsp = createLsp()
    workspace = new MemoryWorkspace(root, { 'a.ts': 'const a = 1\n', 'c.ts': 'use(a)\n' })
    lsp.registerWorkspace(workspace)
    const limit = 'the memory server sees only lines that contain ERROR'
    lsp.registerProvider({ ...memoryProvider(workspace), languageFacts: [{ ...builtInFactsFor('typescript')!, diagnosticsLimit: limit }] })
    const compute = async () => ({ edit: breaking, impact: [`${root}/c.ts`] })
    const dry = await session({ autoApprove: true }).run(lsp, { tool: 't', root, dryRun: true, compute })
    const label = lsp.languageFacts('typescript')!.label
    expect(dry.predicted?.checked?.limits).toEqual([`${label}: ${limit}`])
    expect(renderReceipt(dry)).toContain(`limit of these diagnostics — ${label}: ${limit}`)
    expect(summarizeReceipt(dry)).toContain(`not a compiler check for ${label}`)
    const applied = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute })
    expect(applied.diagnostics?.checked?.limits).toEqual([`${label}: ${limit}`])
    expect(summarizeReceipt(applied)).toContain(`not a compiler check for ${label}`)
  })
})
