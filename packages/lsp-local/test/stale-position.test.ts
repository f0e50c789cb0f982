// A position resolved on one text and asked on another: when another caller's query has synced a newer
// text of the file in between (a concurrent edit), the query answers STALE_VERSION instead of an answer
// about whatever now sits at that position, or INVALID_ARGUMENT for a line that became shorter.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import { createLsp, resolveTarget, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-stale-position-')))
const path = nodePath.join(root, 'a.ts')
const original = 'export function greet(): string {\n  return "hi"\n}\nexport const hello = greet()\n'
let host: LocalHost
let lsp: LspService

/** The 0-based position of `text` in `content`. */
function at(content: string, text: string): { line: number; character: number } {
  const index = content.indexOf(text)
  const before = content.slice(0, index)
  return { line: before.split('\n').length - 1, character: index - before.lastIndexOf('\n') - 1 }
}

beforeAll(async () => {
  writeFileSync(path, original)
  host = await createLocalHost()
  lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
}, 60_000)

afterAll(async () => {
  await lsp?.dispose()
  await host?.dispose()
  rmSync(root, { recursive: true, force: true })
})

test('a newer text synced since the position was resolved is STALE_VERSION, whether the position still fits or not', async () => {
  // The target as a tool resolves it: read once by the seam, the position found in that text.
  const target = await resolveTarget(lsp, { path, line: 4, matchText: 'greet()' })
  const snapshot = target.document
  const position = target.position
  expect(position).toEqual(at(snapshot.text, 'greet()\n'))
  // The position on the snapshot itself answers.
  const hover = await lsp.query({ operation: 'hover', root, path, position, document: snapshot })
  expect(hover.hover?.contents).toContain('greet')

  for (const changed of [`// moved\n${original}`, 'export const x = 1\n']) {
    writeFileSync(path, changed)
    // Another caller's query syncs the new text.
    await lsp.query({ operation: 'documentSymbols', root, path })
    await expect(lsp.query({ operation: 'hover', root, path, position, document: snapshot })).rejects.toMatchObject({
      code: 'STALE_VERSION',
      message: expect.stringContaining('a.ts changed while the query ran'),
    })
  }
  // Without a snapshot the position is taken as meant for the file as it is now.
  await expect(lsp.query({ operation: 'hover', root, path, position: { line: 0, character: 13 } })).resolves.toBeDefined()
}, 60_000)
