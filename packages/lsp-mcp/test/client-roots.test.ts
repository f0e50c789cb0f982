import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ListRootsRequestSchema, type ClientCapabilities, type Root } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { isLspError } from '@codeseam/lsp'

import { followClientRoots, rootUriToPath, type ClientRoots } from '../src/client-roots.js'
import { openSession, type CodeseamSession } from '../src/session.js'

// followClientRoots against the official SDK client and server (in memory) and a real session (no language
// server starts: nothing is queried). Waits on the log lines each decision writes, never on time.

let base: string
let ceiling: string
let a: string
let b: string
let outside: string
let file: string

beforeAll(async () => {
  base = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-client-roots-')))
  ceiling = nodePath.join(base, 'ceiling')
  a = nodePath.join(ceiling, 'a')
  b = nodePath.join(ceiling, 'b')
  outside = nodePath.join(base, 'outside')
  for (const dir of [a, b, outside]) await mkdir(dir, { recursive: true })
  file = nodePath.join(a, 'index.ts')
  await writeFile(file, 'export const answer = 42\n')
})

afterAll(async () => {
  await rm(base, { recursive: true, force: true })
})

const uri = (path: string) => pathToFileURL(path).href

describe('rootUriToPath', () => {
  it('turns a file URI into its path, percent-escapes decoded', () => {
    expect(rootUriToPath(uri('/tmp/with space/x'))).toBe('/tmp/with space/x')
    expect(rootUriToPath('file:///tmp/with%20space')).toBe('/tmp/with space')
  })

  it.each([
    ['another scheme', 'https://example.com/repo'],
    ['not a URI', 'just/a/path'],
    ['a remote file URI', 'file://server/share/repo'],
  ])('refuses %s with INVALID_ARGUMENT', (_, given) => {
    let thrown: unknown
    try {
      rootUriToPath(given)
    } catch (error) {
      thrown = error
    }
    expect(isLspError(thrown) && thrown.code).toBe('INVALID_ARGUMENT')
  })
})

interface Harness {
  readonly session: CodeseamSession
  readonly client: Client
  readonly lines: string[]
  /** Resolves with the first log line (from now on, or already written after `from`) matching `pattern`. */
  logged(pattern: RegExp, from?: number): Promise<string>
  listed(): number
  follow(): ClientRoots
  setRoots(roots: ReadonlyArray<Root> | Error): void
}

const harnesses: Harness[] = []
const cleanups: Array<() => Promise<void>> = []

afterEach(async () => {
  harnesses.length = 0
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function harness(capabilities: ClientCapabilities, initial: ReadonlyArray<Root> | Error = []): Promise<Harness> {
  const session = await openSession({ roots: [], within: [ceiling] })
  const server = new Server({ name: 'test', version: '1.0.0' }, { capabilities: {} })
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities })
  let answer = initial
  let calls = 0
  if (capabilities.roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      calls++
      if (answer instanceof Error) throw answer
      return { roots: [...answer] }
    })
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  await client.connect(clientSide)
  const lines: string[] = []
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = []
  let followed: ClientRoots | undefined
  cleanups.push(async () => {
    followed?.dispose()
    await client.close()
    await session.dispose()
  })
  return {
    session,
    client,
    lines,
    logged(pattern, from = lines.length) {
      const seen = lines.slice(from).find((line) => pattern.test(line))
      if (seen !== undefined) return Promise.resolve(seen)
      return new Promise((resolve) => waiters.push({ pattern, resolve }))
    },
    listed: () => calls,
    follow() {
      followed = followClientRoots({
        server,
        session,
        fallback: [b],
        log: (line) => {
          lines.push(line)
          for (const waiter of waiters.splice(0)) {
            if (waiter.pattern.test(line)) waiter.resolve(line)
            else waiters.push(waiter)
          }
        },
      })
      return followed
    },
    setRoots(roots) {
      answer = roots
    },
  }
}

const open = (session: CodeseamSession) => session.roots.map((info) => info.root)

describe('followClientRoots', () => {
  it("opens the client's folders and skips, one by one, a file, a missing folder, another scheme's URI and a folder outside the ceiling", async () => {
    const h = await harness({ roots: {} }, [
      { uri: uri(a) },
      { uri: uri(file) },
      { uri: uri(nodePath.join(ceiling, 'missing')) },
      { uri: uri(outside) },
      { uri: uri(b) },
    ])
    await h.follow().ready
    expect(open(h.session)).toEqual([a, b])
    const skipped = h.lines.filter((line) => line.startsWith('skipped'))
    expect(skipped).toHaveLength(3)
    expect(skipped.find((line) => line.includes(file))).toContain('INVALID_ARGUMENT')
    expect(skipped.find((line) => line.includes('missing'))).toContain('NOT_FOUND')
    expect(skipped.find((line) => line.includes(outside))).toContain('OUTSIDE_WORKSPACE')
  })

  it('serves the fallback when the client does not announce roots, and never asks it', async () => {
    const h = await harness({})
    await h.follow().ready
    expect(open(h.session)).toEqual([b])
    expect(h.lines.join('\n')).toMatch(/does not announce roots: serving/)
  })

  it('serves the fallback when roots/list fails, or lists nothing usable', async () => {
    const failing = await harness({ roots: {} }, new Error('no roots today'))
    await failing.follow().ready
    expect(open(failing.session)).toEqual([b])
    expect(failing.lines.join('\n')).toMatch(/could not be listed \(.*no roots today\)/)

    const unusable = await harness({ roots: {} }, [{ uri: uri(outside) }])
    await unusable.follow().ready
    expect(open(unusable.session)).toEqual([b])
    expect(unusable.lines.join('\n')).toMatch(/none of the client's 1 roots could be opened: serving/)
  })

  it('follows list_changed; a failing listing keeps the roots open; after dispose changes are ignored', async () => {
    const h = await harness({ roots: { listChanged: true } }, [{ uri: uri(a) }])
    const followed = h.follow()
    await followed.ready
    expect(open(h.session)).toEqual([a])
    expect(h.listed()).toBe(1)

    h.setRoots([{ uri: uri(b) }])
    let from = h.lines.length
    await h.client.sendRootsListChanged()
    await h.logged(/serving the client's roots/, from)
    expect(open(h.session)).toEqual([b])

    h.setRoots(new Error('the client broke'))
    from = h.lines.length
    await h.client.sendRootsListChanged()
    await h.logged(/could not be listed/, from)
    expect(open(h.session)).toEqual([b])
    expect(h.listed()).toBe(3)

    followed.dispose()
    h.setRoots([{ uri: uri(a) }])
    await h.client.sendRootsListChanged()
    // A request after the notification: by its answer the server has handled the notification (in order).
    await h.client.ping()
    await h.client.ping()
    expect(h.listed()).toBe(3)
    expect(open(h.session)).toEqual([b])
  })
})
