import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { pathToUri } from '@codeseam/lsp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { typeScriptRecord } from '../../../lsp-local/src/languages/typescript/record.js'
import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeHierarchy } from '../../src/hierarchy.js'
import type { AnyTool } from '../../src/index.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeSymbols } from '../../src/symbols.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

/**
 * RFC 0026: later pages of a capped answer come from the answer the first page computed — no request reaches
 * the language server (counted on the wire, between the host and the native TypeScript server) — until a file
 * under the workspace changes: then the cursor is refused as stale, with how to ask again.
 */

const countingServer = fileURLToPath(new URL('../support/counting-server.mjs', import.meta.url))
const userFiles = 8
const callsPerFile = 6

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', strict: true }, include: ['src'] }),
  'src/target.ts': 'export function shared(value: number): number {\n  return value + 1\n}\n',
  'src/elsewhere.ts': 'export const unrelated = 1\n',
}
for (let i = 0; i < userFiles; i++) {
  const calls = Array.from({ length: callsPerFile }, (_, n) => `  total += shared(${n})`).join('\n')
  files[`src/user${i}.ts`] =
    `import { shared } from './target'\n\nexport function use${i}(): number {\n  let total = 0\n${calls}\n  return total\n}\n`
}
files['src/many.ts'] = Array.from({ length: 24 }, (_, i) => `export function helper${i}(): number {\n  return ${i}\n}\n`).join('')
files['src/broken.ts'] = Array.from({ length: 12 }, (_, i) => `export const wrong${i}: number = 'text ${i}'\n`).join('')
// The declaration, the import in each file and each call.
const totalReferences = 1 + userFiles * (1 + callsPerFile)

describe('pages from the computed answer (native TypeScript, requests counted on the wire)', { timeout: 180_000 }, () => {
  let root: string
  let log: string
  let real: RealHost

  const requests = (): string[] => readFileSync(log, 'utf8').split('\n').filter(Boolean)
  const references = (extra: Record<string, unknown> = {}) =>
    real.call(codeNavigate, { target: { path: 'src/target.ts', symbol: 'shared' }, kind: 'references', limit: 10, ...extra })

  beforeAll(async () => {
    root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'tool-lsp-kept-pages-')))
    for (const [relative, text] of Object.entries(files)) {
      await mkdir(nodePath.dirname(nodePath.join(root, relative)), { recursive: true })
      await writeFile(nodePath.join(root, relative), text)
    }
    log = nodePath.join(root, '..', `${nodePath.basename(root)}.requests`)
    await writeFile(log, '')
    const located = await typeScriptRecord.locate()
    if (!located.found) throw new Error(`the native TypeScript server is not installed: ${located.why}`)
    real = await startRealHost(root, {
      profiles: [{ id: 'typescript', command: process.execPath, args: [countingServer, log, located.command, '--lsp', '--stdio'] }],
    })
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    await rm(root, { recursive: true, force: true })
    await rm(log, { force: true })
  })

  // Each test starts from a workspace whose files are as written above and an answer asked afresh.
  beforeEach(async () => {
    await writeFile(nodePath.join(root, 'src/elsewhere.ts'), files['src/elsewhere.ts']!)
  })

  it('serves every later page from the first answer: no request reaches the server, and the pages are the whole answer', async () => {
    const first = structured(await references())
    expect(first.totalFound).toBe(totalReferences)
    expect(first.page.truncated).toBe(true)
    expect(requests()).toContain('textDocument/references')
    const shown = first.files.flatMap((f: any) => f.locations.map((l: any) => `${f.path}:${l.line}:${l.column}:${l.container ?? ''}`))
    let cursor: string | undefined = first.page.nextCursor
    let pages = 1
    while (cursor !== undefined) {
      const before = requests().length
      const next = structured(await references({ cursor }))
      expect(requests().slice(before)).toEqual([])
      shown.push(...next.files.flatMap((f: any) => f.locations.map((l: any) => `${f.path}:${l.line}:${l.column}:${l.container ?? ''}`)))
      cursor = next.page.nextCursor
      pages++
    }
    expect(pages).toBe(Math.ceil(totalReferences / 10))
    // The same locations and enclosing symbols as one page of the whole answer.
    const whole = structured(await references({ limit: 500 }))
    expect(shown).toEqual(
      whole.files.flatMap((f: any) => f.locations.map((l: any) => `${f.path}:${l.line}:${l.column}:${l.container ?? ''}`)),
    )
    expect(shown.filter((s: string) => s.endsWith(':use3'))).toHaveLength(callsPerFile)
  })

  // Every other capped answer the issue names: each page as text, so the pages joined are the one-page answer.
  const others: ReadonlyArray<{
    name: string
    tool: AnyTool
    args: Record<string, unknown>
    limit: number
    big: number
    items: (r: any) => string[]
  }> = [
    {
      name: 'callers',
      tool: codeHierarchy,
      args: { target: { path: 'src/target.ts', symbol: 'shared' }, kind: 'callers' },
      limit: 3,
      big: 200,
      items: (r) => r.direct.map((d: any) => `${d.name}@${d.path}:${d.line}:${(d.callSites ?? []).length}`),
    },
    {
      name: 'outline',
      tool: codeSymbols,
      args: { path: 'src/many.ts' },
      limit: 5,
      big: 1000,
      items: (r) => r.outline.map((n: any) => `${n.name}:${n.line}`),
    },
    {
      name: 'symbol search',
      tool: codeSymbols,
      args: { query: 'helper' },
      limit: 5,
      big: 1000,
      items: (r) => r.matches.map((m: any) => `${m.name}@${m.path}:${m.line}`),
    },
    {
      name: 'workspace diagnostics',
      tool: codeDiagnostics,
      args: {},
      limit: 4,
      big: 500,
      items: (r) => r.files.flatMap((f: any) => f.diagnostics.map((d: any) => `${f.path}:${d.line}:${d.message}`)),
    },
  ]

  for (const other of others) {
    it(`serves later pages of ${other.name} from the first answer, with no request to the server`, async () => {
      const first = structured(await real.call(other.tool, { ...other.args, limit: other.limit }))
      expect(first.page.truncated).toBe(true)
      const shown = other.items(first)
      let cursor: string | undefined = first.page.nextCursor
      while (cursor !== undefined) {
        const before = requests().length
        const next = structured(await real.call(other.tool, { ...other.args, limit: other.limit, cursor }))
        expect(requests().slice(before)).toEqual([])
        shown.push(...other.items(next))
        cursor = next.page.nextCursor
      }
      const whole = structured(await real.call(other.tool, { ...other.args, limit: other.big }))
      expect(whole.page.truncated).toBe(false)
      expect(shown).toEqual(other.items(whole))
    })
  }

  it('refuses a cursor after a plain write to another file, at once, and the answer asked again has the new reference', async () => {
    const first = structured(await references())
    const cursor = first.page.nextCursor as string
    // Served from the kept answer while nothing changed.
    const before = requests().length
    expect(structured(await references({ cursor })).page.offset).toBe(10)
    expect(requests().length).toBe(before)
    // Not a file of the answer, never opened: only the folder watch can tell the host.
    await writeFile(nodePath.join(root, 'src/elsewhere.ts'), "import { shared } from './target'\nexport const unrelated = shared(1)\n")
    const stale = await references({ cursor })
    expect(stale.ok).toBe(false)
    if (stale.ok) return
    expect(stale.error.code).toBe('STALE_VERSION')
    expect(stale.error.message).toMatch(/cursor is stale/)
    expect(stale.error.message).toMatch(/without cursor/)
    const again = structured(await references())
    expect(again.totalFound).toBe(totalReferences + 2)
  })

  // Each kind of change, made the moment before the page is asked: an edit of a file the server holds open (seen
  // by a stat of open documents), a file created and a file deleted (seen by the folder watch).
  const changes: ReadonlyArray<{ name: string; change: () => Promise<void>; undo: () => Promise<void> }> = [
    {
      name: 'an edit of a file of the answer',
      change: () => writeFile(nodePath.join(root, 'src/user0.ts'), `${files['src/user0.ts']}// edited\n`),
      undo: () => writeFile(nodePath.join(root, 'src/user0.ts'), files['src/user0.ts']!),
    },
    {
      name: 'a file created',
      change: () => writeFile(nodePath.join(root, 'src/created.ts'), 'export const created = 1\n'),
      undo: () => rm(nodePath.join(root, 'src/created.ts'), { force: true }),
    },
    {
      name: 'a file deleted',
      change: () => rm(nodePath.join(root, 'src/elsewhere.ts')),
      undo: () => writeFile(nodePath.join(root, 'src/elsewhere.ts'), files['src/elsewhere.ts']!),
    },
  ]
  for (const { name, change, undo } of changes) {
    it(`refuses a cursor after ${name}`, async () => {
      const first = structured(await references())
      const cursor = first.page.nextCursor as string
      expect(structured(await references({ cursor })).page.offset).toBe(10)
      await change()
      try {
        const stale = await references({ cursor })
        expect(stale.ok ? 'ok' : stale.error.code).toBe('STALE_VERSION')
      } finally {
        await undo()
      }
    })
  }

  it('keeps the answer across a speculative check (its text never reaches the disk, and is taken back)', async () => {
    const first = structured(await references())
    const cursor = first.page.nextCursor as string
    const path = nodePath.join(root, 'src/user1.ts')
    const checked = await real.lsp.speculate({
      root,
      documents: [{ path, text: `${files['src/user1.ts']}export const broken: number = 'no'\n` }],
      paths: [path],
      waitMs: 10_000,
    })
    expect(checked.files[0]?.freshness).toBe('current')
    const before = requests().length
    expect(structured(await references({ cursor })).page.offset).toBe(10)
    expect(requests().length).toBe(before)
  })

  it("refuses a cursor after codeseam's own write (applyEdit)", async () => {
    const first = structured(await references())
    const cursor = first.page.nextCursor as string
    expect(structured(await references({ cursor })).page.offset).toBe(10)
    const path = nodePath.join(root, 'src/elsewhere.ts')
    await real.lsp.applyEdit(
      {
        operations: [
          {
            type: 'edit',
            uri: pathToUri(path),
            path,
            version: null,
            edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// edited\n' }],
          },
        ],
      },
      { root },
    )
    const stale = await references({ cursor })
    expect(stale.ok ? 'ok' : stale.error.code).toBe('STALE_VERSION')
  })
})
