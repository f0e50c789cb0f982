import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { builtInLanguageFacts } from '@codeseam/lsp'
import { afterAll, afterEach, describe, expect, test } from 'vitest'

import { goplsRecord } from '../src/languages/gopls/record.js'
import { createLocalHost } from '../src/index.js'
import { languageRecords } from '../src/languages/index.js'
import { rustAnalyzerRecord } from '../src/languages/rust-analyzer/record.js'

const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-records-')))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const saved = { ...process.env }
afterEach(() => {
  for (const name of ['PATH', 'GOBIN', 'GOPATH', 'XDG_CACHE_HOME']) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
})

/** A folder holding one executable script. */
function bin(name: string, script: string): string {
  const dir = mkdtempSync(nodePath.join(scratch, 'bin-'))
  writeFileSync(nodePath.join(dir, name), `#!/bin/sh\n${script}\n`)
  chmodSync(nodePath.join(dir, name), 0o755)
  return dir
}

describe('the language records', () => {
  test("each built-in provider hands the seam its record's language facts, the seam's own entries (RFC 0018)", async () => {
    const host = await createLocalHost()
    try {
      for (const provider of host.providers) {
        const record = languageRecords.find((r) => `local:${r.id}` === provider.id)
        if (record === undefined) continue
        expect(provider.languageFacts, provider.id).toEqual(record.grammar)
        // The grammar is the seam's own entry; what a record adds is what its server's diagnostics cannot see.
        for (const { diagnosticsLimit: _limit, ...facts } of record.grammar) expect(builtInLanguageFacts, provider.id).toContainEqual(facts)
      }
      const rust = languageRecords.find((r) => r.grammar.some((g) => g.languageIds.includes('rust')))
      expect(rust?.grammar.find((g) => g.languageIds.includes('rust'))?.diagnosticsLimit).toContain('cargo check')
      expect(host.providers.some((p) => (p.languageFacts ?? []).some((f) => f.languageIds.includes('python')))).toBe(true)
    } finally {
      await host.dispose()
    }
  })

  test('ids are unique; every record serves extensions, and one that renames has a grammar for each language id it serves', () => {
    expect(new Set(languageRecords.map((r) => r.id)).size).toBe(languageRecords.length)
    for (const record of languageRecords) {
      // By extension, or by exact file name (Compose files).
      const profile = record.profile({ found: false, command: record.id, why: '' })
      const served = [...Object.values(profile.extensions), ...Object.values(profile.fileNames ?? {})]
      expect(served.length, record.id).toBeGreaterThan(0)
      // The grammar validates new names: a record whose server renames nothing (JSON, YAML here) needs none.
      if (record.support.rename !== true) continue
      for (const languageId of served)
        expect(
          record.grammar.some((g) => g.languageIds.includes(languageId)),
          `${record.id}: ${languageId}`,
        ).toBe(true)
    }
  })

  test('each grammar accepts ordinary names, refuses malformed ones, and lists identifier-shaped keywords', () => {
    for (const grammar of languageRecords.flatMap((r) => r.grammar)) {
      expect(grammar.identifier.test('total_area2'), grammar.languageIds.join()).toBe(true)
      expect(grammar.identifier.test('2total'), grammar.languageIds.join()).toBe(false)
      // A Sass name is a CSS identifier: `card-shadow` is one name, and SassScript reserves only its operators and
      // literals (`and`, `or`, `not`, `true`, `false`, `null`).
      const sass = grammar.languageIds.includes('scss')
      expect(grammar.identifier.test('a-b'), grammar.languageIds.join()).toBe(sass)
      expect(grammar.keywords.length).toBeGreaterThan(sass ? 5 : 10)
      // Keywords are identifier-shaped (so a name check must refuse them by list): a typo in a list would show here.
      for (const keyword of grammar.keywords) expect(grammar.identifier.test(keyword), keyword).toBe(true)
    }
    const rust = rustAnalyzerRecord.grammar[0]
    expect(rust?.identifier.test('r#match')).toBe(true)
    expect(rust?.identifier.test('_')).toBe(false)
  })
})

describe('finding gopls', () => {
  test('none on PATH or in the Go bin folder: unavailable, with the exact install command', async () => {
    process.env['PATH'] = bin('unrelated', 'exit 0')
    process.env['GOBIN'] = mkdtempSync(nodePath.join(scratch, 'gobin-'))
    const located = await goplsRecord.locate()
    expect(located.found).toBe(false)
    if (!located.found) expect(located.why).toContain('go install golang.org/x/tools/gopls@v0.23.0')
  })

  test('a gopls in the Go bin folder that answers `gopls version` is found there without PATH, with its version', async () => {
    process.env['PATH'] = bin('unrelated', 'exit 0')
    const gobin = bin('gopls', 'echo "golang.org/x/tools/gopls v0.23.0"')
    process.env['GOBIN'] = gobin
    expect(await goplsRecord.locate()).toEqual({ found: true, command: nodePath.join(gobin, 'gopls'), version: 'v0.23.0' })
  })

  test('a gopls that cannot run is told apart from a working one', async () => {
    process.env['PATH'] = bin('gopls', 'echo "exec format error" >&2; exit 126')
    process.env['GOBIN'] = mkdtempSync(nodePath.join(scratch, 'gobin-'))
    const located = await goplsRecord.locate()
    expect(located.found).toBe(false)
    if (!located.found) expect(located.why).toMatch(/did not answer `gopls version`/)
  })
})

describe('finding rust-analyzer', () => {
  test("rustup's proxy without the component is a stand-in: unavailable, saying so, with the cargo install command", async () => {
    // What ~/.cargo/bin/rust-analyzer prints on these machines.
    process.env['PATH'] = bin(
      'rust-analyzer',
      `echo "error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'." >&2; exit 1`,
    )
    process.env['XDG_CACHE_HOME'] = mkdtempSync(nodePath.join(scratch, 'cache-'))
    const located = await rustAnalyzerRecord.locate()
    expect(located.found).toBe(false)
    if (!located.found) {
      expect(located.why).toMatch(/cannot run .*rustup proxy/)
      expect(located.why).toContain('cargo install ra_ap_rust-analyzer --version 0.0.348 --locked')
    }
  })

  test("the project's own build in the cache folder is found without PATH, reporting the pinned crate version", async () => {
    process.env['PATH'] = bin('unrelated', 'exit 0')
    const cache = mkdtempSync(nodePath.join(scratch, 'cache-'))
    process.env['XDG_CACHE_HOME'] = cache
    const dir = nodePath.join(cache, 'codeseam', 'rust-analyzer-0.0.348', 'bin')
    mkdirSync(dir, { recursive: true })
    writeFileSync(nodePath.join(dir, 'rust-analyzer'), '#!/bin/sh\necho "rust-analyzer 0.0.0"\n')
    chmodSync(nodePath.join(dir, 'rust-analyzer'), 0o755)
    expect(await rustAnalyzerRecord.locate()).toEqual({ found: true, command: nodePath.join(dir, 'rust-analyzer'), version: '0.0.348' })
  })
})
