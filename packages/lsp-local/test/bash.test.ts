import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, isLspError, pathToUri } from '@codeseam/lsp'
import { afterEach, describe, expect, test } from 'vitest'
import {
  ConfigurationRequest,
  createMessageConnection,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  InitializedNotification,
  InitializeRequest,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { bashRecord } from '../src/languages/bash/record.js'
import { profileOf } from '../src/languages/index.js'
import { copyFixture } from './helpers.js'

// bash-language-server as the record runs it (real server): its `configured` readiness rule, and what it says
// when ShellCheck or shfmt is missing. The outline, diagnostics and formatting against the bare server are in
// config-languages.test.ts.

const located = await bashRecord.locate()
const inCI = process.env['CI'] === 'true'
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function attached(root: string, options: Parameters<typeof createLocalHost>[0] = {}) {
  const host: LocalHost = await createLocalHost(options)
  const lsp = createLsp()
  cleanups.push(
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root, trust: 'untrusted' }])
  return lsp
}

test.runIf(inCI)('under CI=true ShellCheck and shfmt are installed (.ci/run installs them), so nothing is lacking', () => {
  expect(located.found && located.lacking).toBeUndefined()
})

describe.skipIf(!located.found)('bash-language-server', () => {
  test('the bare server, sent files before its configuration is answered, analyses only the last (why the rule exists)', async () => {
    if (!located.found) return
    const copy = copyFixture('bash-basic')
    cleanups.push(copy.remove)
    const child = spawn(located.command, [...(located.leadingArgs ?? []), 'start'], { stdio: ['pipe', 'pipe', 'ignore'] })
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
    cleanups.push(() => {
      connection.dispose()
      child.kill()
    })
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => ({ shellcheckPath: '' })))
    connection.onRequest(RegistrationRequest.type, () => undefined)
    connection.listen()
    const uri = (file: string) => pathToUri(nodePath.join(copy.root, file))
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToUri(copy.root),
      workspaceFolders: [{ uri: pathToUri(copy.root), name: 'bare' }],
      capabilities: { workspace: { configuration: true } },
    })
    // Not awaited one by one: the opens go out right behind `initialized`, before the configuration answer is read.
    const files = ['scripts/build.sh', 'bin/release', '.bashrc']
    void connection.sendNotification(InitializedNotification.type, {})
    for (const file of files) {
      void connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: uri(file), languageId: 'shellscript', version: 1, text: readFileSync(nodePath.join(copy.root, file), 'utf8') },
      })
    }
    const counts = []
    for (const file of files)
      counts.push(((await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri(file) } })) ?? []).length)
    // bash-language-server 5.8.1: the first two outlines are empty. If this starts failing, the server fixed it
    // and the record's `configured` rule may go.
    expect(counts.slice(0, 2)).toEqual([0, 0])
    expect(counts[2]).toBeGreaterThan(0)
  })

  test('through the host, files opened together at the start are all analysed on their first answers (the `configured` rule)', async () => {
    // The record's readiness rule holds every file back until the server has its settings.
    const copy = copyFixture('bash-basic')
    cleanups.push(copy.remove)
    const lsp = await attached(copy.root)
    const files = ['scripts/build.sh', 'bin/release', '.bashrc']
    const outlines = await Promise.all(
      files.map((file) => lsp.query({ operation: 'documentSymbols', root: copy.root, path: nodePath.join(copy.root, file) })),
    )
    expect(outlines.map((o) => o.symbols.map((s) => s.name).sort())).toEqual([
      ['OUTPUT_DIR', 'build_all', 'log_step', 'target'],
      ['VERSION', 'tag_release'],
      ['EDITOR', 'PROMPT_COMMAND', 'PS1', 'prompt_command'],
    ])
    // What the language itself lacks is not derived either (RFC 0010 derivations are for servers, not languages).
    const operations = lsp.operationsFor(nodePath.join(copy.root, files[0] as string))
    expect(operations).toEqual(expect.arrayContaining(['definition', 'references', 'documentSymbols']))
    for (const lacking of ['implementation', 'prepareTypeHierarchy', 'typeDefinition'] as const) expect(operations).not.toContain(lacking)
  })

  test('without ShellCheck and shfmt on PATH, diagnostics and formatting are UNSUPPORTED_OPERATION naming the install, never empty', async () => {
    const saved = process.env['PATH']
    process.env['PATH'] = ''
    let bare: Awaited<ReturnType<typeof bashRecord.locate>>
    try {
      bare = await bashRecord.locate()
    } finally {
      process.env['PATH'] = saved
    }
    expect(bare.found && bare.lacking).toEqual({
      diagnostics: expect.stringContaining('apt-get install shellcheck'),
      format: expect.stringContaining('apt-get install shfmt'),
    })
    const profile = profileOf(bashRecord, bare)
    expect(profile.operations).not.toContain('diagnostics')
    expect(profile.operations).not.toContain('format')
    expect(profile.operations).toContain('documentSymbols')

    const copy = copyFixture('bash-basic')
    cleanups.push(copy.remove)
    const lsp = await attached(copy.root, { profiles: [profile] })
    const path = nodePath.join(copy.root, 'scripts/build.sh')
    for (const operation of ['diagnostics', 'format'] as const) {
      const error = await lsp.query({ operation, root: copy.root, path }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(isLspError(error) && error.code, operation).toBe('UNSUPPORTED_OPERATION')
    }
    expect((await lsp.query({ operation: 'documentSymbols', root: copy.root, path })).symbols.length).toBeGreaterThan(0)
  })
})
