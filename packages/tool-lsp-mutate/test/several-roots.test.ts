import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspService } from '@codeseam/lsp'
import { type LocalHost } from '@codeseam/lsp-local'
import { callTool, toolContext } from '@codeseam/tool-lsp'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { mutationTools, MutationSession } from '../src/index.js'
import { removeTestLocks, sharedHost, testLockDirectory } from './harness.js'

// A rename whose edit spans two roots of one workspace (RFC 0025): computed across them, but applying it is one
// root's transaction, so it is refused whole, naming the other root — nothing written in either.
const fixture = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '../../lsp-local/test/fixtures/multi-root-ts')
let parent: string
let host: LocalHost
let lsp: LspService

beforeAll(async () => {
  parent = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-mutate-roots-')))
  cpSync(fixture, parent, { recursive: true })
  host = await sharedHost()
  lsp = createLsp()
  await host.attach(lsp, [
    { root: nodePath.join(parent, 'lib'), id: 'lib', trust: 'trusted' },
    { root: nodePath.join(parent, 'app'), id: 'app', trust: 'trusted' },
  ])
})
afterAll(async () => {
  await lsp?.dispose()
  await host?.dispose()
  rmSync(parent, { recursive: true, force: true })
  removeTestLocks()
})

it('a rename that spans roots is refused whole, naming the other root; no file changes', async () => {
  const before = ['lib/src/shapes.ts', 'lib/src/report.ts', 'app/src/main.ts'].map((file) =>
    readFileSync(nodePath.join(parent, file), 'utf8'),
  )
  const session = new MutationSession({ lock: { directory: testLockDirectory }, autoApprove: true })
  const rename = mutationTools(session).find((tool) => tool.name === 'code_rename')
  if (rename === undefined) throw new Error('no code_rename')
  const outcome = await callTool(
    rename,
    { target: { path: 'src/shapes.ts', rootId: 'lib', symbol: 'totalArea' }, newName: 'sumOfAreas' },
    toolContext(lsp),
  )
  expect(outcome.ok).toBe(false)
  if (outcome.ok) return
  expect(outcome.error.code).toBe('OUTSIDE_WORKSPACE')
  expect(outcome.error.message).toContain('src/main.ts in the open root "app"')
  expect(outcome.error.message).toContain('nothing was written')
  // The references were read in both roots: every rename is from the old name.
  const receipt = (outcome.error.data as { receipt?: { integrity?: { names?: Array<{ from: string }> } } }).receipt
  expect(receipt?.integrity?.names?.map((n) => n.from)).toEqual(['totalArea'])
  const after = ['lib/src/shapes.ts', 'lib/src/report.ts', 'app/src/main.ts'].map((file) =>
    readFileSync(nodePath.join(parent, file), 'utf8'),
  )
  expect(after).toEqual(before)
})
