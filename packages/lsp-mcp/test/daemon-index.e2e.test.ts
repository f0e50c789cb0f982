import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { indexStoreDirectory, rootPrefix } from '@codeseam/lsp-index'
import { builtinIndexers } from '@codeseam/lsp-local'
import { copyFixture, type FixtureWorkspace } from '@codeseam/lsp/testing'
import { afterAll, expect, onTestFailed, test } from 'vitest'

import { callTool, privateRuntimeDir, removeDir, socketClient, startServe, textOf, type DaemonProcess } from './support/daemon.js'
import { runBuiltCli } from './support/mcp-process.js'

// Two sessions of one `codeseam serve` on one root with a stored index share the index and its disk state (one per
// store entry, RFC 0034). A plain write to the disk, made outside either session as an agent's own tools make it,
// must show in the next answer of both: a reference added in a changed file is found, a deleted file's references
// are gone, and neither session is answered from the state the other saw before the write.

type Json = any

const indexer = (await builtinIndexers()).find((i) => i.language.includes('TypeScript'))
const installed = indexer?.found === true
if (!installed && process.env['CI'] === 'true') throw new Error(`CI=true and the indexer is missing: codeseam install ${indexer?.id ?? ''}`)

let fixture: FixtureWorkspace | undefined
let runtime: string | undefined
let daemon: DaemonProcess | undefined
const clients: Client[] = []

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})))
  await daemon?.stop()
  if (runtime !== undefined) removeDir(runtime)
  if (fixture === undefined) return
  const store = indexStoreDirectory()
  const prefix = `${rootPrefix(fixture.root)}-`
  for (const name of (await readdir(store).catch(() => [] as string[])).filter((n) => n.startsWith(prefix)))
    await rm(nodePath.join(store, name), { recursive: true, force: true })
  await rm(fixture.root, { recursive: true, force: true })
})

const references = { kind: 'references', target: { path: 'src/shapes.ts', symbol: 'renameMe' } }

async function ask(client: Client): Promise<{ hits: string[]; notice: string }> {
  const result = await callTool(client, 'code_navigate', references)
  expect(result.isError, textOf(result)).toBe(false)
  const structured = result.structuredContent as Json
  const hits = (structured.files as Json[]).flatMap((f) => (f.locations as Json[]).map((h) => `${f.path}:${h.line}`)).sort()
  return { hits, notice: String(structured.notice ?? '') }
}

/** The 1-based line of the first line of `path` holding `needle` (as code_navigate numbers lines). */
async function lineOf(path: string, needle: string): Promise<number> {
  const index = (await readFile(path, 'utf8')).split('\n').findIndex((line) => line.includes(needle))
  if (index < 0) throw new Error(`${path} has no line with ${needle}`)
  return index + 1
}

test.skipIf(!installed)(
  'two daemon sessions on one indexed root both see a plain write and a deletion in their next answer',
  { timeout: 300_000 },
  async () => {
    fixture = await copyFixture()
    const { root } = fixture
    const built = await runBuiltCli(['index', '--root', root], { cwd: root, env: process.env, deadlineMs: 150_000 })
    expect(built.code, built.stderr).toBe(0)

    runtime = privateRuntimeDir()
    daemon = await startServe(['--socket', nodePath.join(runtime, 'd.sock')], runtime)
    const served = daemon
    onTestFailed(() => console.error(`codeseam serve stderr:\n${served.stderr()}`))
    const socket = daemon.socket
    if (socket === undefined) throw new Error('the daemon has no socket')
    const a = await socketClient(socket, { root })
    const b = await socketClient(socket, { root })
    clients.push(a, b)

    // Both answer from the index, the same references; the import line of main.ts numbers lines as lineOf does.
    const before = await ask(a)
    expect(before.notice).toMatch(/answered from the index built .* not by the live server/)
    expect(before.hits).toContain(`src/main.ts:${await lineOf(fixture.path('src/main.ts'), 'renameMe')}`)
    expect(before.hits.some((hit) => hit.startsWith('src/geometry.ts:'))).toBe(true)
    expect((await ask(b)).hits).toEqual(before.hits)

    // A plain write adds a reference in main.ts: the next answer of each session has it. The first is the index's
    // answer merged with the live server's for main.ts (which starts that server); once the live server has loaded
    // every project it answers alone (RFC 0034's take-over) and, like any live answer, names no index.
    const merged =
      /^answered from the index built .* merged with the live server's answer for (a file|2 files) changed, added or deleted since \(/
    const mergedOrLive = (notice: string) => expect(notice === '' || merged.test(notice), notice).toBe(true)
    const main = fixture.path('src/main.ts')
    await writeFile(main, `${await readFile(main, 'utf8')}\nexport const again = renameMe\n`)
    const added = `src/main.ts:${await lineOf(main, 'export const again')}`
    const first = await ask(b)
    expect(first.hits).toEqual([...before.hits, added].sort())
    expect(first.notice).toMatch(merged)
    expect(first.notice).toContain('(src/main.ts)')
    const second = await ask(a)
    expect(second.hits).toEqual(first.hits)
    mergedOrLive(second.notice)

    // Deleting geometry.ts leaves none of its references in either session's next answer.
    await rm(fixture.path('src/geometry.ts'))
    for (const client of [a, b]) {
      const after = await ask(client)
      expect(after.hits).toEqual(first.hits.filter((hit) => !hit.startsWith('src/geometry.ts:')))
      mergedOrLive(after.notice)
    }
  },
)
