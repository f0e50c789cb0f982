// A native TypeScript server reached through a pass-through process that logs every didOpen it forwards: the wire,
// as the server receives it (need-first's and the deferred files' tests count what was opened, and in what order).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { LspService } from '@codeseam/lsp'

import type { LocalHostOptions } from '../../src/index.js'
import { builtinProfiles } from '../../src/languages/index.js'

const proxySource = `import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
const [log, command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] })
let pending = Buffer.alloc(0)
process.stdin.on('data', (chunk) => {
  child.stdin.write(chunk)
  pending = Buffer.concat([pending, chunk])
  for (;;) {
    const end = pending.indexOf('\\r\\n\\r\\n')
    if (end < 0) break
    const length = Number(/Content-Length: *(\\d+)/i.exec(pending.subarray(0, end).toString())[1])
    if (pending.length < end + 4 + length) break
    const message = JSON.parse(pending.subarray(end + 4, end + 4 + length).toString())
    pending = pending.subarray(end + 4 + length)
    if (message.method === 'textDocument/didOpen') appendFileSync(log, message.params.textDocument.uri + '\\n')
  }
})
process.stdin.on('end', () => child.stdin.end())
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
`

/** The wire of one test file: its proxy and log live in `folder` (a dot-folder of the fixture, never a source). */
export interface WireOpens {
  /** A host configuration whose `typescript` profile goes through the proxy; the log is emptied. */
  config(): Promise<LocalHostOptions>
  /** The files the server was told of by didOpen, in order. */
  openedFiles(): string[]
}

export function wireOpens(folder: string): WireOpens {
  const log = nodePath.join(folder, 'opened.log')
  const proxy = nodePath.join(folder, 'proxy.mjs')
  mkdirSync(folder, { recursive: true })
  writeFileSync(proxy, proxySource)
  writeFileSync(log, '')
  return {
    async config() {
      writeFileSync(log, '')
      const typescript = (await builtinProfiles()).find((profile) => profile.id === 'typescript')
      if (typescript === undefined) throw new Error('no built-in typescript profile')
      return { profiles: [{ id: 'typescript', command: process.execPath, args: [proxy, log, typescript.command, ...typescript.args] }] }
    },
    openedFiles: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((uri) => fileURLToPath(uri)),
  }
}

/** Resolves once the status says every project of a root was loaded and none is loading. */
export function everythingLoaded(lsp: LspService, root: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const status = lsp.status().find((s) => s.providerId === 'local:typescript' && s.root === root)
      if (status?.loading === undefined && status?.projects !== undefined && status.projects.loaded === status.projects.found) {
        unsubscribe()
        resolve()
      }
    }
    const unsubscribe = lsp.onStatusChange(check)
    check()
  })
}
