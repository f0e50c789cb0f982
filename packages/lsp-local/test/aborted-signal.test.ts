// An already-aborted signal has fired its 'abort' event before anyone listens: waits given one must give
// up at once instead of running to their deadline. The deadlines here are far beyond the test's timeout,
// so a wait that ignores the aborted signal fails the test by timing out.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { DiagnosticsStore } from '../src/server/diagnostics.js'
import { clientCapabilities } from '../src/features/client-capabilities.js'
import { LanguageServer } from '../src/server/language-server.js'
import { faultServerPath, FaultLog } from './fault-server/harness.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'lsp-local-aborted-')))
const farDeadline = () => Date.now() + 3_600_000
const servers: LanguageServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  rmSync(root, { recursive: true, force: true })
})

describe('an already-aborted signal', { timeout: 60_000 }, () => {
  it('ends a diagnostics wait at once', async () => {
    const store = new DiagnosticsStore()
    expect(await store.waitForPush('file:///nothing-will-come.fault', 0, 1, 400, farDeadline(), AbortSignal.abort())).toBeUndefined()
  })

  it('ends a wait for a server that never finishes its progress at once', async () => {
    const log = new FaultLog(nodePath.join(root, 'log.jsonl'))
    const server = new LanguageServer({
      clientCapabilities,
      profileId: 'fault',
      command: process.execPath,
      args: [faultServerPath, '--log', log.path, '--scenario', 'endless-progress'],
      root,
      env: { PATH: process.env['PATH'] ?? '' },
      settings: {},
      maxMessageBytes: 64 * 1024 * 1024,
      stderrLines: 50,
      maxOpenDocuments: 10,
      livenessGraceMs: 30_000,
    })
    servers.push(server)
    await server.initialize(30_000)
    await log.waitFor((entries) => entries.find((e) => e.event === 'progress-begun'), 'the endless progress to begin')
    // The server's progress reaches the client after it logs it: wait for the host to see it too.
    await new Promise<void>((resolve) => (server.activeProgress.size > 0 ? resolve() : server.once('progress', () => resolve())))
    expect(await server.waitForQuiet(farDeadline(), AbortSignal.abort())).toBe(false)
  })
})
