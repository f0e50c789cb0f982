// Answers bounded (RFC 0014) against real servers: an outline larger than maxMessageBytes is dropped unread
// by the stdout guard and its query answers UNAVAILABLE naming the limit; the server is not restarted and
// answers the next query. Each server writes its answers its own way (the native TypeScript server and
// pyright put `"jsonrpc"` then `"id"` first, clangd sorts its keys), which is what this checks against the
// guard's reading of an answer's first bytes.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { describe, expect, test } from 'vitest'
import { createLsp, type LspError } from '@codeseam/lsp'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { LeakCheck } from './helpers.js'

const KiB = 1024
// Outlines of about 4.3 MB: over the limit, within the 16 times of it that the guard streams past.
const limit = 1024 * KiB

/** `count` declarations, one a line, from `line(n)`. */
function declarations(count: number, line: (n: number) => string): string {
  return Array.from({ length: count }, (_, n) => line(n)).join('\n') + '\n'
}

const profiles = await builtinProfiles()
const cases = [
  {
    server: 'typescript',
    small: 'small.ts',
    smallText: 'export const one = 1\n',
    big: 'big.ts',
    line: (n: number) => `export const v${n} = ${n}`,
  },
  { server: 'pyright', small: 'small.py', smallText: 'one = 1\n', big: 'big.py', line: (n: number) => `v${n} = ${n}` },
  { server: 'clangd', small: 'small.c', smallText: 'int one = 1;\n', big: 'big.c', line: (n: number) => `int v${n} = ${n};` },
] as const

describe('an answer over maxMessageBytes from a real server', () => {
  for (const c of cases) {
    const profile = profiles.find((p) => p.id === c.server)
    const skip = profile === undefined ? `there is no built-in ${c.server} profile` : profile.unavailable
    test.skipIf(skip !== undefined)(
      `${c.server}: a large outline is refused with UNAVAILABLE, no restart, the next query answers`,
      async () => {
        const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-answer-limits-${c.server}-`)))
        // 20 000 declarations: well within the per-file limits (under 1 MB), an outline of several MB.
        writeFileSync(nodePath.join(root, c.big), declarations(20_000, c.line))
        writeFileSync(nodePath.join(root, c.small), c.smallText)
        const leaks = new LeakCheck()
        const host = await createLocalHost({ maxMessageBytes: limit })
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root, trust: 'trusted' }])
          const first = await lsp.query({ operation: 'documentSymbols', root, path: c.small })
          expect(first.symbols.map((s) => s.name)).toContain('one')
          await leaks.record()
          const error = (await lsp.query({ operation: 'documentSymbols', root, path: c.big }).then(
            () => undefined,
            (e: unknown) => e,
          )) as LspError | undefined
          expect(error?.code, error?.message).toBe('UNAVAILABLE')
          expect(error?.data).toMatchObject({ limit: 'maxMessageBytes', ceiling: limit, profile: c.server })
          expect(error?.data?.value).toBeGreaterThan(limit)
          expect(error?.message).toMatch(/dropped unread and the server keeps running/)
          const again = await lsp.query({ operation: 'documentSymbols', root, path: c.small })
          expect(again.symbols.map((s) => s.name)).toContain('one')
          const status = host.status().find((s) => s.server === c.server)
          expect(status?.restarts).toBe(0)
          expect(status?.state).not.toBe('crashed')
        } finally {
          await lsp.dispose()
          await host.dispose()
          rmSync(root, { recursive: true, force: true })
        }
        expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
      },
      120_000,
    )
  }
})
