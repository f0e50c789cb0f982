// Limits before work (RFC 0013), against the fault server: files over a per-file limit answer a typed error
// (file queries) or are skipped and counted (workspace-wide queries), and the server's own log shows they
// never reached it, nor was it restarted.
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { describe, expect, test } from 'vitest'
import { createLsp, pathToUri, type LspQueryResult } from '@codeseam/lsp'

import { binaryBreach, breachOf, breachReason, breachRemedy, lineBreach, sizeBreach, SkippedFiles } from '../src/documents/file-limits.js'
import { resolveResourceLimits } from '../src/policy/limits.js'
import { useFaultSuite, type FaultRequest } from './fault-server/host-fixture.js'

const symbolsOf = (path: string): FaultRequest<'documentSymbols'> => ({ operation: 'documentSymbols', path })

describe('the checks', () => {
  test('size: over the ceiling only, 0 disables', () => {
    expect(sizeBreach(100, { maxFileBytes: 100, maxLineLength: 0 })).toBeUndefined()
    expect(sizeBreach(101, { maxFileBytes: 100, maxLineLength: 0 })).toEqual({ limit: 'maxFileBytes', value: 101, ceiling: 100 })
    expect(sizeBreach(10 ** 9, { maxFileBytes: 0, maxLineLength: 0 })).toBeUndefined()
  })

  test('binary: a NUL byte in the first 8 KB; text that is not UTF-8 is said to be that; a sequence the probe cuts is not counted', () => {
    const text = (s: string) => Buffer.from(s, 'utf8')
    expect(binaryBreach(text('export const a = "é€😀"\n'))).toBeUndefined()
    expect(binaryBreach(text('a\u0000b'))).toEqual({ limit: 'binary' })
    // Issue 32: a Latin-1 file was "binary content".
    expect(binaryBreach(Buffer.from([0x61, 0xff, 0x62]))).toEqual({ limit: 'notUtf8' })
    expect(binaryBreach(Buffer.from('# caf\xe9 cr\xe8me\nx = 1\n', 'latin1'))).toEqual({ limit: 'notUtf8' })
    expect(breachReason({ limit: 'notUtf8' })).toMatch(/not UTF-8 \(an 8-bit encoding such as Latin-1\?\)/)
    expect(breachRemedy('notUtf8')).toContain('iconv -f latin1 -t utf-8')
    // A four-byte character straddling the 8 KB probe's end: valid text.
    const straddling = Buffer.concat([Buffer.alloc(8190, 0x61), text('😀'), text('tail')])
    expect(binaryBreach(straddling)).toBeUndefined()
    // A NUL after the probe is not looked for.
    expect(binaryBreach(Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]))).toBeUndefined()
  })

  test('line length: the first line over the ceiling, wherever it is', () => {
    const limits = { maxFileBytes: 0, maxLineLength: 10 }
    expect(lineBreach('short\nlines\n', limits)).toBeUndefined()
    expect(lineBreach('ok\n' + 'x'.repeat(11) + '\nok', limits)).toEqual({ limit: 'maxLineLength', value: 11, ceiling: 10 })
    expect(lineBreach('x'.repeat(11), limits)).toMatchObject({ limit: 'maxLineLength' })
    expect(lineBreach('x'.repeat(1000), { maxFileBytes: 0, maxLineLength: 0 })).toBeUndefined()
  })

  test('limits.maxFileBytes and limits.maxLineLength: defaults, 0 allowed, negatives refused', () => {
    const machine = { cpus: 2, totalMemoryBytes: 24 * 1024 ** 3 }
    expect(resolveResourceLimits({}, machine)).toMatchObject({ maxFileBytes: 4 * 1024 * 1024, maxLineLength: 10_000 })
    expect(resolveResourceLimits({ maxFileBytes: 0, maxLineLength: 0 }, machine)).toMatchObject({ maxFileBytes: 0, maxLineLength: 0 })
    expect(() => resolveResourceLimits({ maxFileBytes: -1 }, machine)).toThrow(/maxFileBytes/)
  })

  test('skipped files are counted by limit', () => {
    const skipped = new SkippedFiles()
    skipped.add({ limit: 'maxFileBytes', ceiling: 100 })
    skipped.add({ limit: 'binary' })
    skipped.addAll([{ limit: 'maxFileBytes', count: 2, ceiling: 100 }])
    expect(skipped.total).toBe(4)
    expect(skipped.field()).toEqual({
      filesSkipped: [
        { limit: 'maxFileBytes', count: 3, ceiling: 100 },
        { limit: 'binary', count: 1 },
      ],
    })
    expect(new SkippedFiles().field()).toEqual({})
  })
})

describe('through the host', () => {
  const { start } = useFaultSuite('codeseam-file-limits-')
  const limits = { maxFileBytes: 64 * 1024, maxLineLength: 2_000 }

  /** The three files of the issue, at this test's scale: oversized, random bytes, one minified line. */
  function writeOverLimits(root: string): { big: string; bin: string; min: string } {
    const big = nodePath.join(root, 'big.fault')
    const bin = nodePath.join(root, 'bin.fault')
    const min = nodePath.join(root, 'min.fault')
    const lines: string[] = []
    for (let n = 0; lines.join('\n').length <= limits.maxFileBytes; n += 1000) {
      for (let i = n; i < n + 1000; i++) lines.push(`const v${i} = ${i}`)
    }
    writeFileSync(big, lines.join('\n'))
    // Random bytes (under the size ceiling, so the binary check is what refuses them), a NUL placed at the
    // start so the test does not depend on the draw.
    writeFileSync(bin, Buffer.concat([Buffer.from([0]), randomBytes(16 * 1024)]))
    writeFileSync(min, Array.from({ length: 400 }, (_, i) => `function f${i}(){return ${i}}`).join(';'))
    return { big, bin, min }
  }

  test('a file query on each answers UNAVAILABLE naming the limit; none is ever sent; the server is not restarted', async () => {
    const run = await start({ server: ['--scenario', 'normal'], config: { limits } })
    const files = writeOverLimits(run.root)
    // The server works: a normal file's symbols.
    const ok = await run.query({ operation: 'documentSymbols', path: run.lib })
    expect(ok.symbols.map((s) => s.name)).toContain('greet')
    const expected = { big: 'maxFileBytes', bin: 'binary', min: 'maxLineLength' } as const
    for (const [name, path] of Object.entries(files) as Array<[keyof typeof files, string]>) {
      const error = await run.failure(symbolsOf(path))
      expect(error.code).toBe('UNAVAILABLE')
      expect(breachOf(error)?.limit).toBe(expected[name])
      expect(error.message).toMatch(name === 'bin' ? /binary/ : /raise limits\.max(FileBytes|LineLength)/)
    }
    // Asked again, through ctx.lsp (the seam reads the file first): refused before a byte is read.
    const lsp = createLsp()
    await run.host.attach(lsp, [run.root])
    try {
      const position = { line: 0, character: 'const v0'.indexOf('v0') }
      await expect(lsp.query({ operation: 'hover', root: run.root, path: files.big, position })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        data: { limit: 'maxFileBytes', ceiling: limits.maxFileBytes, path: 'big.fault' },
      })
      await expect(lsp.query({ operation: 'documentSymbols', root: run.root, path: files.bin })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        data: { limit: 'binary' },
      })
      // Snippets and bodies are read through the same reader: held to the same ceilings.
      await expect(lsp.workspace(run.root)!.readFile(files.min)).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        data: { limit: 'maxLineLength' },
      })
    } finally {
      await lsp.dispose()
    }
    const opened = run.log.received('textDocument/didOpen').map((e) => (e.params as { textDocument: { uri: string } }).textDocument.uri)
    expect(opened).toContain(pathToUri(run.lib))
    for (const path of Object.values(files)) expect(opened).not.toContain(pathToUri(path))
    expect(run.pids()).toHaveLength(1)
    expect(run.host.status().find((s) => s.providerId === 'local:fault')).toMatchObject({ state: 'ready', restarts: 0 })
  })

  test('a file that grows over the ceiling is closed on the server, and the query answers UNAVAILABLE', async () => {
    const run = await start({ server: ['--scenario', 'normal'], config: { limits } })
    const path = nodePath.join(run.root, 'grows.fault')
    writeFileSync(path, 'function grows() {}\n')
    expect((await run.query({ operation: 'documentSymbols', path })).symbols.map((s) => s.name)).toEqual(['grows'])
    writeFileSync(path, `function grows() {}\n${'// padding padding padding\n'.repeat(4000)}`)
    expect(breachOf(await run.failure(symbolsOf(path)))?.limit).toBe('maxFileBytes')
    await run.log.waitFor(
      (entries) =>
        entries.find(
          (e) => e.event === 'received' && e.method === 'textDocument/didClose' && (e.params as any).textDocument.uri === pathToUri(path),
        ),
      'didClose of the grown file',
    )
    expect(run.log.received('textDocument/didChange')).toEqual([])
    expect(run.pids()).toHaveLength(1)
  })

  test('workspace diagnostics skip them and count them by limit in the coverage', async () => {
    const run = await start({ server: ['--scenario', 'normal'], config: { limits } })
    const files = writeOverLimits(run.root)
    const result = (await run.query({ operation: 'diagnostics' })) as Extract<LspQueryResult, { kind: 'diagnostics' }>
    expect(result.coverage.complete).toBe(false)
    expect(result.coverage.analysed).toEqual(expect.arrayContaining([run.main, run.lib]))
    expect(result.coverage.filesSkipped).toHaveLength(3)
    expect(result.coverage.filesSkipped).toEqual(
      expect.arrayContaining([
        { limit: 'maxFileBytes', count: 1, ceiling: limits.maxFileBytes },
        { limit: 'binary', count: 1 },
        { limit: 'maxLineLength', count: 1, ceiling: limits.maxLineLength },
      ]),
    )
    const opened = run.log.received('textDocument/didOpen').map((e) => (e.params as { textDocument: { uri: string } }).textDocument.uri)
    for (const path of Object.values(files)) expect(opened).not.toContain(pathToUri(path))
    expect(run.pids()).toHaveLength(1)
  })
})
