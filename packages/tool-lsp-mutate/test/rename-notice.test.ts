import { createLsp, LspError, pathToUri, resultMeta, type LspProvider, type LspSearchCoverage } from '@codeseam/lsp'
import { callTool, toolContext } from '@codeseam/tool-lsp'
import { describe, expect, it } from 'vitest'

import { mutationTools, MutationSession } from '../src/index.js'
import { MemoryWorkspace } from './memory.js'

/**
 * code_rename says, in its receipt's notes, when the search behind the rename did not cover the whole
 * workspace (`meta.coverage` incomplete), so an incomplete rename is never presented as the whole of it.
 */

const text = 'export const total = 1\nexport const twice = total * 2\n'

/** A provider that renames every `total` in a.ts and reports `coverage` with its answer. */
function renamer(workspace: MemoryWorkspace, coverage: LspSearchCoverage): LspProvider {
  const path = `${workspace.root}/a.ts`
  return {
    id: 'local:typescript',
    extensions: { '.ts': 'typescript' },
    operations: ['documentSymbols', 'prepareRename', 'rename'],
    async query(request) {
      if (request.operation === 'documentSymbols')
        return { kind: 'documentSymbols', symbols: [], meta: resultMeta('local:typescript') } as never
      if (request.operation === 'prepareRename')
        return {
          kind: 'prepareRename',
          rename: { canRename: true, range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } }, placeholder: 'total' },
          meta: resultMeta('local:typescript'),
        } as never
      if (request.operation !== 'rename') throw new LspError('UNSUPPORTED_OPERATION', request.operation)
      const edits = [...(workspace.files.get(path) ?? '').split('\n').entries()].flatMap(([line, content]) =>
        [...content.matchAll(/\btotal\b/g)].map((m) => ({
          range: { start: { line, character: m.index }, end: { line, character: m.index + 5 } },
          newText: request.newName,
        })),
      )
      return {
        kind: 'workspaceEdit',
        edit: { operations: [{ type: 'edit', path, uri: pathToUri(path), edits }] },
        meta: resultMeta('local:typescript', { coverage }),
      } as never
    },
  }
}

async function rename(coverage: LspSearchCoverage) {
  const lsp = createLsp()
  const workspace = new MemoryWorkspace('/mem/app', { 'a.ts': text })
  lsp.registerWorkspace(workspace)
  lsp.registerProvider(renamer(workspace, coverage))
  const tool = mutationTools(new MutationSession({ autoApprove: true, lock: false })).find((t) => t.name === 'code_rename')!
  const outcome = await callTool(
    tool,
    { target: { path: 'a.ts', line: 1, matchText: 'total' }, newName: 'sum', dryRun: true },
    toolContext(lsp),
  )
  await lsp.dispose()
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`)
  return { text: outcome.text, structured: outcome.structured as { receipt: Record<string, any> } }
}

describe('code_rename coverage notice', () => {
  it('names what the rename did not search', async () => {
    const outcome = await rename({ projectsSearched: 2, projectsFound: 3, filesNotSearched: 4, complete: false })
    const notes: string[] = outcome.structured.receipt.notes
    expect(notes).toContain(
      'searched 2 of 3 projects; 4 files in no project were not searched (over the open-document limit: raise limits.maxOpenDocuments).',
    )
    expect(outcome.text).toContain('note: searched 2 of 3 projects;')
    expect(outcome.structured.receipt.files[0].editCount).toBe(2)
  })

  it('adds nothing when the search was complete', async () => {
    const outcome = await rename({ projectsSearched: 3, projectsFound: 3, complete: true })
    expect(outcome.structured.receipt.notes.filter((n: string) => /searched/.test(n))).toEqual([])
  })
})
