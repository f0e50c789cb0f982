import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { indexStoreDirectory, indexOperations, rootPrefix } from '@codeseam/lsp-index'
import { builtinIndexers } from '@codeseam/lsp-local'
import { copyFixture } from '@codeseam/lsp/testing'
import { afterAll, expect, test } from 'vitest'

import { openSession, type CodeseamSession } from '../src/session.js'
import { runBuiltCli } from './support/mcp-process.js'

// RFC 0034, "Start": with a stored index, a question the index answers does not wait for the local host's start,
// which looks up every built-in server (each installed one asked its version). Made observable without timing: a
// `gopls` first on PATH answers `gopls version` only once the test writes to a FIFO, so the lookup cannot finish
// before then (unless the probe's own 10 s deadline ends it first: that fails this test, never passes it).

const indexer = (await builtinIndexers()).find((i) => i.language.includes('TypeScript'))
const installed = indexer?.found === true
if (!installed && process.env['CI'] === 'true') throw new Error(`CI=true and the indexer is missing: codeseam install ${indexer?.id ?? ''}`)

let root: string | undefined
let held: string | undefined
let session: CodeseamSession | undefined
const path = process.env['PATH']
afterAll(async () => {
  await session?.dispose()
  process.env['PATH'] = path
  if (held !== undefined) await rm(held, { recursive: true, force: true })
  if (root === undefined) return
  const store = indexStoreDirectory()
  for (const name of (await readdir(store).catch(() => [] as string[])).filter((n) => n.startsWith(`${rootPrefix(root ?? '')}-`)))
    await rm(nodePath.join(store, name), { recursive: true, force: true })
  await rm(root, { recursive: true, force: true })
})

test.skipIf(!installed)(
  'the index answers while the servers are still being looked up; then the host’s own providers serve',
  { timeout: 300_000 },
  async () => {
    root = (await copyFixture()).root
    const built = await runBuiltCli(['index', '--root', root], { cwd: root, env: process.env, deadlineMs: 150_000 })
    expect(built.code, built.stderr).toBe(0)

    held = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-held-lookup-'))
    const release = nodePath.join(held, 'release')
    execFileSync('mkfifo', [release])
    await writeFile(nodePath.join(held, 'gopls'), `#!/bin/sh\nread line < '${release}'\necho "gopls v0.0.0-held"\n`, { mode: 0o755 })
    process.env['PATH'] = `${held}${nodePath.delimiter}${path ?? ''}`

    const opened = await openSession({ roots: [root] })
    session = opened
    let lookedUp = false
    void opened.started.then(() => {
      lookedUp = true
    })
    const text = await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')
    const lines = text.split('\n')
    const line = lines.findIndex((l) => l.includes('export const renameMe'))
    const position = { line, character: (lines[line] ?? '').indexOf('renameMe') }
    const answer = await opened.lsp.query({ operation: 'references', root, path: 'src/shapes.ts', position })
    expect(answer.meta.source?.origin).toBe('index')
    expect(answer.locations.length).toBeGreaterThan(2)
    // The lookup is still held: the answer did not wait for it. The status says the servers are being looked up.
    expect(lookedUp).toBe(false)
    const typescript = opened.lsp.status().find((s) => s.providerId === 'local:typescript')
    expect(typescript?.state).toBe('starting')
    expect(typescript?.reason).toMatch(/looking up the installed language servers/)
    // The change mark (RFC 0026) is known while the lookup is held, so pages of an answer from the index are kept.
    const marked = await opened.lsp.changeMark(root)
    expect(marked).toBeDefined()

    await writeFile(release, 'go\n')
    await opened.started
    expect(lookedUp).toBe(true)
    // The host's own providers serve now, each with the operations its lookup found (a version's own set).
    const registered = new Map(opened.lsp.providers().map((p) => [String(p.id), p]))
    for (const provider of opened.host.providers) {
      const own = registered.get(provider.id)
      const expected = '.ts' in provider.extensions ? [...new Set([...provider.operations, ...indexOperations])] : provider.operations
      expect([...(own?.operations ?? [])].sort(), provider.id).toEqual([...expected].sort())
    }
    expect(opened.lsp.status().find((s) => s.providerId === 'local:typescript')?.reason ?? '').not.toMatch(/looking up/)
    const again = await opened.lsp.query({ operation: 'references', root, path: 'src/shapes.ts', position })
    expect(again.meta.source?.origin).toBe('index')
    expect(again.locations).toEqual(answer.locations)
    // Nothing changed across the lookup: the mark is the one given before it (a cursor made then holds).
    expect(await opened.lsp.changeMark(root)).toBe(marked)
    // A plain write to an indexed file moves it.
    await writeFile(nodePath.join(root, 'src/shapes.ts'), `${text}\nexport const markedAfter = 1\n`)
    expect(await opened.lsp.changeMark(root)).not.toBe(marked)
  },
)
