// Code actions whose edit arrives as a workspace/applyEdit during workspace/executeCommand (the real
// typescript-language-server's refactorings): overlapping resolutions on one server each get their own
// edits, none lost and none mixed.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import { createLsp, type LspPosition } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { typeScriptLanguageServerInstead } from './helpers.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'lsp-local-capture-')))
const files = ['first', 'second', 'third'].map((name) => {
  const text = `export function ${name}(value: number) {\n  return value * 40 + 2\n}\n`
  const path = nodePath.join(root, `${name}.ts`)
  writeFileSync(path, text)
  return { name, path, text }
})
writeFileSync(
  nodePath.join(root, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'esnext' }, include: ['*.ts'] }),
)
let host: LocalHost | undefined
afterAll(async () => {
  await host?.dispose()
  rmSync(root, { recursive: true, force: true })
})

function positionOf(text: string, needle: string): LspPosition {
  const offset = text.indexOf(needle)
  if (offset < 0) throw new Error(`"${needle}" is not in the fixture`)
  const before = text.slice(0, offset).split('\n')
  return { line: before.length - 1, character: (before.at(-1) ?? '').length }
}

test('overlapping refactorings through executeCommand each return their own applied edits', { timeout: 180_000 }, async () => {
  host = await createLocalHost({ ...typeScriptLanguageServerInstead, requestTimeoutMs: 120_000 })
  const lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
  const picked = await Promise.all(
    files.map(async (file) => {
      // Extract refactorings end by asking the client to start a rename (_typescript.rename), which a host
      // has no editor for; a rewrite refactoring only applies its edit.
      const start = positionOf(file.text, file.name)
      const range = { start, end: { line: start.line, character: start.character + file.name.length } }
      const listed = await lsp.query({ operation: 'codeActions', root, path: file.path, range, only: ['refactor.rewrite'] })
      const action = listed.actions.find((a) => /return type/i.test(a.title))
      if (action === undefined)
        throw new Error(`no return-type refactoring offered in ${file.name}.ts: ${JSON.stringify(listed.actions.map((a) => a.title))}`)
      return { file, action }
    }),
  )
  const resolved = await Promise.all(
    picked.map(({ file, action }) => lsp.query({ operation: 'resolveCodeAction', root, path: file.path, actionId: action.id })),
  )
  resolved.forEach((result, index) => {
    const file = files[index]
    const paths = [result.edit, ...(result.command?.appliedEdits ?? [])].flatMap((edit) =>
      edit.operations.map((op) => ('path' in op ? op.path : op.newPath)),
    )
    // The edit came through executeCommand's workspace/applyEdit, which is what is captured.
    expect(result.command?.appliedEdits.length, `${file?.name}: ${JSON.stringify(result)}`).toBeGreaterThan(0)
    expect(new Set(paths), file?.name).toEqual(new Set([file?.path]))
  })
})

test(
  'an extract refactoring, which ends by asking the client to start a rename, returns its applied edit',
  { timeout: 180_000 },
  async () => {
    host ??= await createLocalHost({ ...typeScriptLanguageServerInstead, requestTimeoutMs: 120_000 })
    const lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'trusted' }])
    const file = files[0]
    if (file === undefined) throw new Error('no fixture file')
    const start = positionOf(file.text, 'value * 40')
    const range = { start, end: { line: start.line, character: start.character + 'value * 40'.length } }
    const listed = await lsp.query({ operation: 'codeActions', root, path: file.path, range, only: ['refactor.extract'] })
    const action = listed.actions.find((a) => /constant/i.test(a.title))
    if (action === undefined)
      throw new Error(`no extract-to-constant refactoring offered: ${JSON.stringify(listed.actions.map((a) => a.title))}`)
    const result = await lsp.query({ operation: 'resolveCodeAction', root, path: file.path, actionId: action.id })
    const edits = (result.command?.appliedEdits ?? []).flatMap((edit) => edit.operations)
    expect(edits.map((op) => ('path' in op ? op.path : op.newPath))).toEqual([file.path])
    const inserted = edits.flatMap((op) => (op.type === 'edit' ? op.edits.map((e) => e.newText) : [])).join('')
    expect(inserted).toMatch(/const \w+ = value \* 40/)
  },
)
