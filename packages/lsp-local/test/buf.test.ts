import { writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, isLspError } from '@codeseam/lsp'
import { afterEach, describe, expect, test } from 'vitest'

import { createLocalHost } from '../src/index.js'
import { bufRecord } from '../src/languages/buf/record.js'
import { copyFixture } from './helpers.js'

// buf's language server and its untrusted-root rule (real buf): a buf.yaml that names check plugins makes buf
// run programs for lint, so an untrusted root holding one is refused, naming the file. The outline, diagnostics
// and formatting against the bare server are in config-languages.test.ts.

const located = await bufRecord.locate()
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

test.runIf(process.env['CI'] === 'true')('under CI=true buf is installed (scripts/install-language-servers.mjs)', () => {
  expect(located.found, located.found ? '' : located.why).toBe(true)
})

describe.skipIf(!located.found)('buf lsp serve', () => {
  test('an untrusted root whose buf.yaml names check plugins is refused, naming the file; trusted, it answers', async () => {
    const copy = copyFixture('proto-basic')
    cleanups.push(copy.remove)
    writeFileSync(nodePath.join(copy.root, 'buf.yaml'), 'version: v2\nmodules:\n  - path: proto\nplugins:\n  - plugin: buf-plugin-trap\n')
    const path = nodePath.join(copy.root, 'proto/shop/v1/shop.proto')
    for (const trust of ['untrusted', 'trusted'] as const) {
      const host = await createLocalHost()
      const lsp = createLsp()
      cleanups.push(
        () => host.dispose(),
        () => lsp.dispose(),
      )
      await host.attach(lsp, [{ root: copy.root, trust }])
      const answer = await lsp.query({ operation: 'documentSymbols', root: copy.root, path }).then(
        (result) => result,
        (error: unknown) => error,
      )
      if (trust === 'untrusted') {
        expect(isLspError(answer) && answer.code, String(answer)).toBe('UNTRUSTED')
        expect(String((answer as Error).message)).toContain('buf.yaml')
      } else {
        expect(isLspError(answer), String(answer)).toBe(false)
        expect((answer as { symbols: unknown[] }).symbols.length).toBeGreaterThan(0)
      }
    }
  })

  test('without plugins an untrusted root is served, and what protobuf lacks is not derived', async () => {
    const copy = copyFixture('proto-basic')
    cleanups.push(copy.remove)
    const host = await createLocalHost()
    const lsp = createLsp()
    cleanups.push(
      () => host.dispose(),
      () => lsp.dispose(),
    )
    await host.attach(lsp, [{ root: copy.root, trust: 'untrusted' }])
    const path = nodePath.join(copy.root, 'proto/shop/v1/shop.proto')
    const symbols = await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
    expect(symbols.symbols.map((s) => s.name)).toContain('shop.v1.Order')
    const operations = lsp.operationsFor(path)
    for (const lacking of ['implementation', 'prepareTypeHierarchy', 'hover'] as const) expect(operations).not.toContain(lacking)
  })
})
