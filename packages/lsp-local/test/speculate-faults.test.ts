// Speculative checks (RFC 0018) against the fault server: a read that arrives during one waits at the slot's
// gate and sees the disk, a cancel midway restores the server's view, a server that dies midway is reported
// as unavailable (never as an empty success). Synchronised on the server's log, never on timers.
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { isLspError, type LspSpeculationResult } from '@codeseam/lsp'

import type { ReceivedEntry } from './fault-server/harness.js'
import { libText, useFaultSuite, type FaultRun } from './fault-server/host-fixture.js'

const { start } = useFaultSuite('lsp-local-speculate-')

/** lib.fault as the edit would leave it: `greet` renamed, and a FIXME the server warns about. */
const speculativeLib = libText.replace('greet', 'welcome') + '// FIXME\n'

function speculate(run: FaultRun, signal = new AbortController().signal): Promise<LspSpeculationResult> {
  return run.provider.speculate!(
    { root: run.root, documents: [{ path: run.lib, text: speculativeLib }], paths: [run.lib, run.main], waitMs: 20_000 },
    signal,
  )
}

/** The document notifications of lib.fault the server received (didOpen, didChange, didClose), in order. */
function libSyncs(entries: ReadonlyArray<{ event: string }>): ReceivedEntry[] {
  return entries.filter(
    (e): e is ReceivedEntry =>
      e.event === 'received' &&
      /^textDocument\/did(Open|Change|Close)$/.test((e as ReceivedEntry).method ?? '') &&
      (e as ReceivedEntry).params?.textDocument?.uri?.endsWith('/lib.fault'),
  )
}

/** The text a document notification carried (full sync: a didChange carries the whole text); undefined for didClose. */
function textOf(entry: ReceivedEntry | undefined): string | undefined {
  return entry?.params?.textDocument?.text ?? entry?.params?.contentChanges?.[0]?.text
}

/** Resolves once the server has received the speculative text of lib.fault. */
function speculativeTextSent(run: FaultRun): Promise<true> {
  return run.log.waitFor(
    (entries) => (libSyncs(entries).some((e) => textOf(e) === speculativeLib) ? true : undefined),
    'the speculative didChange of lib.fault',
  )
}

async function symbolNames(run: FaultRun): Promise<string[]> {
  const result = await run.query({ operation: 'documentSymbols', path: run.lib })
  return result.symbols.map((s) => s.name)
}

describe('speculative checks on the fault server', { timeout: 60_000 }, () => {
  it('a read issued while a speculation runs waits for it and sees the disk text', async () => {
    const run = await start({
      server: ['--scenario', 'slow', '--method', 'textDocument/diagnostic', '--delay-ms', '1500', '--sync', 'full'],
      config: { requestTimeoutMs: 20_000 },
    })
    const order: string[] = []
    const speculation = speculate(run).finally(() => order.push('speculation'))
    await speculativeTextSent(run)
    const read = symbolNames(run).finally(() => order.push('read'))
    const [result, names] = await Promise.all([speculation, read])
    expect(names).toContain('greet')
    expect(names).not.toContain('welcome')
    expect(order).toEqual(['speculation', 'read'])
    // The speculative content was checked: the FIXME exists only in the speculative text.
    const lib = result.files.find((f) => f.path === run.lib)
    expect(lib?.freshness, JSON.stringify(result)).toBe('current')
    expect(lib?.diagnostics.map((d) => d.message)).toContain('FIXME left in the code')
    // The server had the disk view back (the document closed, opened again from disk) before the read reached it.
    const entries = run.log.entries()
    const symbolsAt = entries.findIndex((e) => (e as ReceivedEntry).method === 'textDocument/documentSymbol')
    const before = libSyncs(entries.slice(0, symbolsAt))
    expect(before.map((e) => e.method)).toEqual([
      'textDocument/didOpen',
      'textDocument/didChange',
      'textDocument/didClose',
      'textDocument/didOpen',
    ])
    expect(before.map(textOf)).toEqual([libText, speculativeLib, undefined, libText])
    expect(readFileSync(run.lib, 'utf8')).toBe(libText)
  })

  it('a cancel once the speculative text was sent rejects with CANCELLED and restores the disk text', async () => {
    const run = await start({
      server: ['--scenario', 'slow', '--method', 'textDocument/diagnostic', '--delay-ms', '60000', '--sync', 'full'],
      config: { requestTimeoutMs: 20_000 },
    })
    const controller = new AbortController()
    const speculation = speculate(run, controller.signal)
    await speculativeTextSent(run)
    controller.abort()
    const error = await speculation.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isLspError(error, 'CANCELLED'), String(error)).toBe(true)
    // Closed before the promise settled (the document was opened for the check): the server reads the disk again.
    await run.log.waitFor(
      (entries) => (libSyncs(entries).at(-1)?.method === 'textDocument/didClose' ? true : undefined),
      'lib.fault closed',
    )
    expect(await symbolNames(run)).toContain('greet')
    expect(readFileSync(run.lib, 'utf8')).toBe(libText)
  })

  it('a server that dies during a speculative check: unavailable (never an empty success); the restarted server reads the disk', async () => {
    const run = await start({
      server: ['--scenario', 'crash-on-change', '--after', '1', '--first-process-only', '--sync', 'full'],
      config: { requestTimeoutMs: 20_000 },
    })
    const outcome = await speculate(run).then(
      (result) => result,
      (error: unknown) => error,
    )
    if (isLspError(outcome)) expect(outcome.code).toBe('SERVER_CRASHED')
    else {
      const files = (outcome as LspSpeculationResult).files
      expect(files).toHaveLength(2)
      for (const file of files) {
        expect(file.freshness, JSON.stringify(file)).toBe('unavailable')
        expect(file.note).toMatch(/SERVER_CRASHED/)
      }
    }
    expect(readFileSync(run.lib, 'utf8')).toBe(libText)
    expect(await symbolNames(run)).toContain('greet')
    expect(run.pids()).toHaveLength(2)
  })
})
