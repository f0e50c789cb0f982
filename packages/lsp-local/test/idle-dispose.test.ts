// dispose() after the idle timer reclaimed every server must settle even in a script where nothing else
// keeps node's event loop alive (it once waited on an unref'd watchdog and node exited with code 13).
import { spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'

import { faultServerPath, withDeadline } from './fault-server/harness.js'
import { supportScriptArgs } from './helpers.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'lsp-local-idle-dispose-')))
writeFileSync(nodePath.join(root, 'main.fault'), 'function main() {}\n')
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('a plain script that disposes after idle reclamation prints "disposed" and exits 0', { timeout: 90_000 }, async () => {
  const child = spawn(process.execPath, supportScriptArgs('idle-dispose-host.ts', root, faultServerPath), {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += String(chunk)))
  child.stderr.on('data', (chunk) => (stderr += String(chunk)))
  const exit = await withDeadline(
    new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
    60_000,
    'the host script to exit',
  ).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  expect({ exit, stdout: stdout.trim().split('\n') }, stderr).toEqual({ exit: 0, stdout: ['queried', 'reclaimed', 'disposed'] })
})
