import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, expect, test } from 'vitest'
import { Containment, isLspError } from '@codeseam/lsp'

import { Translator } from '../src/features/translate.js'
import { createLocalHost } from '../src/index.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-contain-')))
const root = nodePath.join(base, 'root')
const outside = nodePath.join(base, 'outside')
mkdirSync(nodePath.join(root, 'src'), { recursive: true })
mkdirSync(outside)
writeFileSync(nodePath.join(root, 'src', 'a.ts'), 'a')
writeFileSync(nodePath.join(outside, 'secret.ts'), 'secret')
symlinkSync(outside, nodePath.join(root, 'escape'))
symlinkSync(nodePath.join(root, 'src'), nodePath.join(root, 'inner-link'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

function code(run: () => unknown): string | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    return isLspError(error) ? error.code : 'not an LspError'
  }
}

test('inputs that escape the root are OUTSIDE_WORKSPACE, after symlink resolution', async () => {
  const c = await Containment.forRoot(root)
  expect(c.input('src/a.ts')).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.input('inner-link/a.ts')).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.input('src/new-file.ts')).toBe(nodePath.join(root, 'src', 'new-file.ts'))
  for (const path of [
    '../outside/secret.ts',
    'src/../../outside/secret.ts',
    '%2e%2e/outside/secret.ts',
    nodePath.join(outside, 'secret.ts'),
    'escape/secret.ts',
    'escape/not-yet.ts',
    'https://example.com/a.ts',
    pathToFileURL(nodePath.join(outside, 'secret.ts')).href,
  ]) {
    expect(
      code(() => c.input(path)),
      path,
    ).toBe('OUTSIDE_WORKSPACE')
  }
})

test('server URIs outside the root, through symlinks or with other schemes are dropped', async () => {
  const c = await Containment.forRoot(root)
  expect(c.output(pathToFileURL(nodePath.join(root, 'src', 'a.ts')).href)).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.output(pathToFileURL(nodePath.join(outside, 'secret.ts')).href)).toBeUndefined()
  expect(c.output(pathToFileURL(nodePath.join(root, 'escape', 'secret.ts')).href)).toBeUndefined()
  expect(c.output('untitled:Untitled-1')).toBeUndefined()
  expect(c.output('https://example.com/a.ts')).toBeUndefined()
})

test('a root is canonicalized; a missing root is NOT_FOUND', async () => {
  const c = await Containment.forRoot(nodePath.join(root, 'inner-link'))
  expect(c.root).toBe(nodePath.join(root, 'src'))
  await expect(Containment.forRoot(nodePath.join(base, 'missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
})

test('a workspace edit with any part outside the root is refused whole, naming the URI; read results only drop and count', async () => {
  const c = await Containment.forRoot(root)
  const inside = pathToFileURL(nodePath.join(root, 'src', 'a.ts')).href
  const secret = pathToFileURL(nodePath.join(outside, 'secret.ts')).href
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }
  const edits = [{ range, newText: 'b' }]
  const refused = (edit: Parameters<Translator['workspaceEdit']>[0]) => {
    try {
      new Translator(c).workspaceEdit(edit, () => null)
    } catch (error) {
      return isLspError(error) ? { code: error.code, message: error.message } : { code: 'not an LspError', message: String(error) }
    }
    return { code: 'applied', message: '' }
  }
  for (const [what, edit, uri] of [
    ['changes', { changes: { [inside]: edits, [secret]: edits } }, secret],
    [
      'documentChanges edit',
      {
        documentChanges: [
          { textDocument: { uri: inside, version: 1 }, edits },
          { textDocument: { uri: secret, version: 1 }, edits },
        ],
      },
      secret,
    ],
    [
      'create',
      {
        documentChanges: [
          { textDocument: { uri: inside, version: 1 }, edits },
          { kind: 'create', uri: secret },
        ],
      },
      secret,
    ],
    ['rename out', { documentChanges: [{ kind: 'rename', oldUri: inside, newUri: secret }] }, secret],
    ['non-file URI', { changes: { [inside]: edits, 'untitled:Untitled-1': edits } }, 'untitled:Untitled-1'],
  ] as const) {
    const outcome = refused(edit as Parameters<Translator['workspaceEdit']>[0])
    expect(outcome.code, what).toBe('OUTSIDE_WORKSPACE')
    expect(outcome.message, what).toContain(uri)
  }
  // The same edit, contained, is translated in full.
  expect(new Translator(c).workspaceEdit({ changes: { [inside]: edits } }, () => 3).operations).toEqual([
    { type: 'edit', uri: inside, path: nodePath.join(root, 'src', 'a.ts'), version: 3, edits },
  ])
  // Locations still drop and count.
  const translator = new Translator(c)
  expect(
    translator
      .locations([
        { uri: inside, range },
        { uri: secret, range },
      ])
      .map((l) => l.path),
  ).toEqual([nodePath.join(root, 'src', 'a.ts')])
  expect(translator.dropped).toBe(1)
})

test('a path over PATH_MAX (4096 characters) is INVALID_ARGUMENT before any file-system work; exists() says false', async () => {
  const c = await Containment.forRoot(root)
  const long = Array.from({ length: 5000 }, () => 'a').join('/')
  expect(long.length).toBeGreaterThan(4096)
  expect(code(() => c.input(long))).toBe('INVALID_ARGUMENT')
  expect(code(() => c.input(nodePath.join(root, long)))).toBe('INVALID_ARGUMENT')
  // Exactly at the limit is still resolved normally.
  const atLimit = `src/${'b'.repeat(4096 - 'src/'.length)}`
  expect(code(() => c.input(atLimit))).toBeUndefined()
  const host = await createLocalHost({ builtins: false })
  try {
    const workspace = await host.openWorkspace(root)
    await expect(workspace.readFile(long)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    expect(await workspace.exists(long)).toBe(false)
  } finally {
    await host.dispose()
  }
})

test('a file replaced by a symbolic link that points out is neither read nor sent to the server, though it was checked before', async () => {
  const project = nodePath.join(base, 'swap')
  mkdirSync(nodePath.join(project, 'src'), { recursive: true })
  writeFileSync(nodePath.join(project, 'tsconfig.json'), '{"include":["src"]}')
  const file = nodePath.join(project, 'src', 'swapped.ts')
  writeFileSync(file, 'export const ordinaryValue = 1\n')
  writeFileSync(nodePath.join(outside, 'secret-module.ts'), 'export const secretValue = 42\n')
  const host = await createLocalHost({ idleTtlMs: 0 })
  try {
    const workspace = await host.openWorkspace(project)
    const provider = host.providers.find((p) => p.id === 'local:typescript')
    if (provider === undefined) throw new Error('no typescript provider')
    const outline = () =>
      provider.query(
        { operation: 'documentSymbols', root: workspace.root, path: 'src/swapped.ts', languageId: 'typescript' },
        new AbortController().signal,
      )
    const before = await outline()
    expect(before.symbols.map((s) => s.name)).toEqual(['ordinaryValue'])
    expect((await workspace.readFile('src/swapped.ts')).text).toContain('ordinaryValue')

    rmSync(file)
    symlinkSync(nodePath.join(outside, 'secret-module.ts'), file)

    await expect(outline()).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
    await expect(workspace.readFile('src/swapped.ts')).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
    const edit = {
      operations: [
        {
          type: 'edit' as const,
          path: 'src/swapped.ts',
          version: null,
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// x\n' }],
        },
      ],
    }
    await expect(workspace.applyEdit(edit as never)).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
    expect((await import('node:fs')).readFileSync(nodePath.join(outside, 'secret-module.ts'), 'utf8')).toBe(
      'export const secretValue = 42\n',
    )
  } finally {
    await host.dispose()
  }
})

test('a fresh check that finds a path swapped for a link out also drops what was cached about other spellings and URIs', async () => {
  const dir = nodePath.join(root, 'fresh')
  mkdirSync(dir, { recursive: true })
  const file = nodePath.join(dir, 'f.ts')
  writeFileSync(file, 'f')
  const c = await Containment.forRoot(root)
  const uri = pathToFileURL(file).href
  expect(c.input('fresh/f.ts')).toBe(file)
  expect(c.output(uri)).toBe(file)
  rmSync(file)
  symlinkSync(nodePath.join(outside, 'secret.ts'), file)
  expect(code(() => c.fresh(file))).toBe('OUTSIDE_WORKSPACE')
  expect(code(() => c.input('fresh/f.ts'))).toBe('OUTSIDE_WORKSPACE')
  expect(c.output(uri)).toBeUndefined()
})
