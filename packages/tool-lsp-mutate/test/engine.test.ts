import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createLsp, LspError, pathToUri, type LspService, type LspWorkspaceEdit } from '@codeseam/lsp'

import { MutationSession, type ApprovalRequest, type MutationSessionOptions } from '../src/index.js'
import { renderReceipt } from '../src/receipt.js'
import { memoryProvider, MemoryWorkspace } from './memory.js'

/** The transaction engine's decisions, on an in-memory backend (real files are covered by the server suites). */

const root = '/mem/project'
let lsp: LspService
let workspace: MemoryWorkspace

beforeEach(() => {
  lsp = createLsp()
  workspace = new MemoryWorkspace(root, { 'a.ts': 'const a = 1\n', 'b.ts': 'const b = ERROR\n' })
  lsp.registerWorkspace(workspace)
  lsp.registerProvider(memoryProvider(workspace))
})
afterEach(async () => {
  await lsp.dispose()
})

function session(options: MutationSessionOptions): MutationSession {
  return new MutationSession({ lock: false, diagnosticsWaitMs: 1_000, ...options })
}

function replaceLine(
  path: string,
  line: number,
  oldLength: number,
  newText: string,
  extra: Partial<{ snippet: boolean; annotationId: string }> = {},
) {
  const absolute = `${root}/${path}`
  return {
    type: 'edit' as const,
    uri: pathToUri(absolute),
    path: absolute,
    version: null,
    edits: [{ range: { start: { line, character: 0 }, end: { line, character: oldLength } }, newText, ...extra }],
  }
}

const fix: LspWorkspaceEdit = {
  operations: [
    replaceLine('a.ts', 0, 'const a = 1'.length, 'const a = ERROR'),
    replaceLine('b.ts', 0, 'const b = ERROR'.length, 'const b = 2'),
  ],
}

describe('the transaction engine', () => {
  test('applies, and the receipt has hashes, counts and the diagnostic delta', async () => {
    const receipt = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute: async () => ({ edit: fix }) })
    expect(receipt.status).toBe('applied')
    expect(workspace.text('a.ts')).toBe('const a = ERROR\n')
    expect(receipt.files.map((f) => [f.path, f.editCount, f.saved])).toEqual([
      ['a.ts', 1, true],
      ['b.ts', 1, true],
    ])
    expect(receipt.diagnostics?.introduced.map((d) => `${d.path}:${d.line}`)).toEqual(['a.ts:1'])
    expect(receipt.diagnostics?.resolved.map((d) => `${d.path}:${d.line}`)).toEqual(['b.ts:1'])
    expect(receipt.diagnostics?.settled).toBe(true)
    expect(receipt.preview?.counts).toEqual({ files: 2, edits: 2, resourceOperations: 0, linesAdded: 2, linesRemoved: 2 })
  })

  test('snippet edits are applied as plain text and the receipt says so', async () => {
    const edit = { operations: [replaceLine('a.ts', 0, 'const a = 1'.length, 'const ${1:name} = ${2:value}$0', { snippet: true })] }
    const receipt = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute: async () => ({ edit }) })
    expect(workspace.text('a.ts')).toBe('const name = value\n')
    expect(receipt.snippetEditsAsPlainText).toBe(1)
    expect(renderReceipt(receipt)).toContain('applied as plain text')
  })

  test('without an approval policy nothing is written', async () => {
    const receipt = await session({}).run(lsp, { tool: 't', root, compute: async () => ({ edit: fix }) })
    expect(receipt.status).toBe('denied')
    expect(receipt.error?.code).toBe('APPROVAL_DENIED')
    expect(receipt.approval.deniedReason).toMatch(/no approval policy/)
    expect(workspace.text('a.ts')).toBe('const a = 1\n')
  })

  test('a callback that throws is a denial', async () => {
    const receipt = await session({
      approve: () => {
        throw new Error('UI closed')
      },
    }).run(lsp, { tool: 't', root, compute: async () => ({ edit: fix }) })
    expect(receipt.status).toBe('denied')
    expect(receipt.approval.deniedReason).toMatch(/UI closed/)
    expect(workspace.text('b.ts')).toBe('const b = ERROR\n')
  })

  test('needsConfirmation annotations and unpreviewable effects need an explicit yes even under autoApprove', async () => {
    const asked: ApprovalRequest[] = []
    const s = session({
      autoApprove: true,
      approve: (request) => {
        asked.push(request)
        return 'approve'
      },
    })
    const annotated: LspWorkspaceEdit = {
      operations: [replaceLine('a.ts', 0, 'const a = 1'.length, 'const a = 3', { annotationId: 'risky' })],
      annotations: { risky: { label: 'Change public API', needsConfirmation: true } },
    }
    const first = await s.run(lsp, { tool: 't', root, compute: async () => ({ edit: annotated }) })
    expect(first.status).toBe('applied')
    expect(first.approval).toMatchObject({ decision: 'approved', explicitRequired: true })
    expect(asked[0]?.explicitReasons.join()).toContain('Change public API')
    const second = await s.run(lsp, { tool: 't', root, compute: async () => ({ edit: fix, unpreviewable: ['a server command ran'] }) })
    expect(second.approval.reasons).toEqual(['a server command ran'])
    expect(asked).toHaveLength(2)
    // Without a callback, explicit changes are denied even with autoApprove.
    const third = await session({ autoApprove: true }).run(lsp, { tool: 't', root, compute: async () => ({ edit: annotated }) })
    expect(third.status).toBe('denied')
  })

  test('refusals, overlaps and write failures come back as receipts, with nothing written', async () => {
    const s = session({ autoApprove: true })
    const ambiguous = await s.run(lsp, {
      tool: 't',
      root,
      compute: async () => {
        throw new LspError('AMBIGUOUS', 'two symbols match', { data: { candidates: [{ label: 'a' }, { label: 'b' }] } })
      },
    })
    expect([ambiguous.status, ambiguous.error?.code]).toEqual(['refused', 'AMBIGUOUS'])
    const overlapping: LspWorkspaceEdit = {
      operations: [
        { ...replaceLine('a.ts', 0, 8, 'x'), edits: [...replaceLine('a.ts', 0, 8, 'x').edits, ...replaceLine('a.ts', 0, 5, 'y').edits] },
      ],
    }
    const overlap = await s.run(lsp, { tool: 't', root, compute: async () => ({ edit: overlapping }) })
    expect(overlap.status).toBe('refused')
    workspace.failWriteOf = `${root}/b.ts`
    const failed = await s.run(lsp, { tool: 't', root, compute: async () => ({ edit: fix }) })
    expect([failed.status, failed.error?.code]).toEqual(['failed', 'WRITE_FAILED'])
    expect(workspace.text('a.ts')).toBe('const a = 1\n')
    expect(workspace.text('b.ts')).toBe('const b = ERROR\n')
  })

  test('cancelled while waiting for diagnostics after the write: the receipt still says the change was written', async () => {
    // A fresh service whose diagnostics, once the edit is on disk, wait until the call is aborted (the
    // abort comes from inside that wait, so it lands exactly there).
    const controller = new AbortController()
    const cancelling = createLsp()
    const inner = memoryProvider(workspace)
    cancelling.registerWorkspace(workspace)
    cancelling.registerProvider({
      ...inner,
      async query(request, signal) {
        if (request.operation !== 'diagnostics' || workspace.text('a.ts') === 'const a = 1\n') return inner.query(request, signal)
        const aborted = new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new LspError('CANCELLED', 'cancelled')), { once: true }),
        )
        controller.abort()
        return aborted
      },
    })
    try {
      const receipt = await session({ autoApprove: true }).run(
        cancelling,
        { tool: 't', root, compute: async () => ({ edit: fix }) },
        controller.signal,
      )
      expect(controller.signal.aborted).toBe(true)
      expect(workspace.text('a.ts')).toBe('const a = ERROR\n')
      expect(receipt.status).toBe('applied')
      expect(receipt.error).toBeUndefined()
      expect(receipt.files.map((f) => [f.path, f.saved, f.hashAfter !== undefined])).toEqual([
        ['a.ts', true, true],
        ['b.ts', true, true],
      ])
      expect(receipt.diagnostics?.settled).toBe(false)
      expect(renderReceipt(receipt)).not.toMatch(/nothing was written/)
    } finally {
      await cancelling.dispose()
    }
  })

  test('a failure after the write is reported with the change as written, never as nothing written', async () => {
    const controller = new AbortController()
    const original = lsp.operationsFor.bind(lsp)
    // The service going away right after the write: reading diagnostics then throws out of the snapshot.
    lsp.operationsFor = (path) => {
      if (workspace.text('a.ts') !== 'const a = 1\n') {
        controller.abort()
        throw new LspError('DISPOSED', 'the service was disposed')
      }
      return original(path)
    }
    const receipt = await session({ autoApprove: true }).run(
      lsp,
      { tool: 't', root, compute: async () => ({ edit: fix }) },
      controller.signal,
    )
    expect(workspace.text('b.ts')).toBe('const b = 2\n')
    expect(receipt.status).toBe('applied')
    expect(receipt.files.every((f) => f.saved && f.hashAfter !== undefined)).toBe(true)
    expect(receipt.notes.join(' ')).toMatch(/the edit was written, but the work after it stopped \(CANCELLED/)
    expect(renderReceipt(receipt)).not.toMatch(/nothing was written/)
  })

  test('an edit that changes nothing is "unchanged" and is not sent for approval', async () => {
    const same = { operations: [replaceLine('a.ts', 0, 'const a = 1'.length, 'const a = 1')] }
    const receipt = await session({
      approve: () => {
        throw new Error('must not be asked')
      },
    }).run(lsp, { tool: 't', root, compute: async () => ({ edit: same }) })
    expect(receipt.status).toBe('unchanged')
    expect(receipt.approval.decision).toBe('notAsked')
  })

  test('resource operations are listed; deletes are destructive and previewed as removal', async () => {
    const doomed = `${root}/b.ts`
    const receipt = await session({ autoApprove: true }).run(lsp, {
      tool: 't',
      root,
      dryRun: true,
      compute: async () => ({ edit: { operations: [{ type: 'delete', uri: pathToUri(doomed), path: doomed }] } }),
    })
    expect(receipt.status).toBe('previewed')
    expect(receipt.resourceOperations).toEqual([{ type: 'delete', path: 'b.ts', destructive: true }])
    expect(receipt.preview?.files[0]).toMatchObject({ path: 'b.ts', change: 'delete' })
    expect(receipt.preview?.files[0]?.diff).toContain('+++ /dev/null')
    expect(workspace.text('b.ts')).toBe('const b = ERROR\n')
  })
})
