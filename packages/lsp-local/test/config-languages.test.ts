import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import * as nodePath from 'node:path'

import { applyTextEdits, createLsp, isLspError, pathToUri, type LspDocumentSymbol, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMessageConnection, InitializeRequest, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node'

import { createLocalHost } from '../src/index.js'
import { languageRecords } from '../src/languages/index.js'
import type { LanguageRecord } from '../src/languages/record.js'
import { BareServer, startSeamAndBare, type Outline } from './config-bare-server.js'
import { copyFixture } from './helpers.js'
import { corporaFolder, unpackCorpus } from './oracle/workspaces.js'

/*
 * The configuration languages of a repository (issue 30): each record's first answers through the seam — outline,
 * diagnostics, formatting — equal what its bare server says on the same file, on its own fixture and on real files
 * from the corpora (tanstack-query's workflows, package.json and tsconfig.json). The bare server is started from the
 * record's own lookup and settings, spoken to with nothing but the protocol.
 */

/** Files each configuration record is compared on: in its fixture, and in corpora (when the corpora are here). */
const samples: Readonly<
  Record<string, { readonly fixture: ReadonlyArray<string>; readonly corpus: Readonly<Record<string, ReadonlyArray<string>>> }>
> = {
  yaml: {
    fixture: ['.github/workflows/ci.yml', 'broken.yml'],
    corpus: { 'tanstack-query': ['.github/workflows/pr.yml', '.github/ISSUE_TEMPLATE/bug_report.yml', 'pnpm-workspace.yaml'] },
  },
  json: {
    fixture: ['tsconfig.json', 'broken.json'],
    corpus: { 'tanstack-query': ['package.json', 'tsconfig.json', 'packages/query-core/package.json'] },
  },
  css: { fixture: ['style.css', 'broken.css'], corpus: { 'tanstack-query': ['examples/svelte/star-wars/src/app.css'] } },
  html: {
    fixture: ['index.html'],
    corpus: { 'tanstack-query': ['examples/svelte/simple/index.html', 'examples/solid/simple/index.html'] },
  },
  // Shell: by extension, by a `.bashrc`-style name, and an extension-less script by its `#!` line.
  bash: {
    fixture: ['scripts/build.sh', 'bin/release', '.bashrc', 'broken.sh'],
    corpus: { bytes: ['ci/test-stable.sh', 'ci/miri.sh', 'ci/tsan.sh'] },
  },
  // No corpus holds a Dockerfile: the fixture's, by its name and by `.dockerfile`.
  dockerfile: { fixture: ['Dockerfile', 'broken.dockerfile'], corpus: {} },
  taplo: {
    fixture: ['Cargo.toml', 'broken.toml'],
    corpus: { thiserror: ['Cargo.toml', 'impl/Cargo.toml', 'rust-toolchain.toml'], flask: ['pyproject.toml'] },
  },
  // Markdown: broken and unused links in the fixture; real docs with YAML front matter and relative links.
  markdown: {
    fixture: ['README.md', 'docs/guide.md', 'broken.md'],
    corpus: {
      'tanstack-query': ['README.md', 'docs/framework/react/overview.md', 'docs/framework/react/guides/queries.md'],
      flask: ['README.md'],
    },
  },
  // No corpus holds a .proto file: the fixture's buf module.
  buf: { fixture: ['proto/shop/v1/shop.proto', 'proto/shop/v1/broken.proto'], corpus: {} },
}
const records = languageRecords.filter((record) => samples[record.id] !== undefined)
const inCI = process.env['CI'] === 'true'
const taplo = records.find((r) => r.id === 'taplo')
const taploFound = taplo !== undefined && (await taplo.locate()).found
const corpora = corporaFolder()

test('every configuration record is compared here', () => {
  expect(records.map((r) => r.id).sort()).toEqual(Object.keys(samples).sort())
})

const seamOutline = (symbols: ReadonlyArray<LspDocumentSymbol>): Outline =>
  symbols.map((s) => ({ name: s.name, line: s.selectionRange.start.line, children: seamOutline(s.children) }))

const flatten = (outline: Outline): Outline => outline.flatMap((s) => [{ ...s, children: [] }, ...flatten(s.children)])
const byLine = (a: Outline[number], b: Outline[number]) => a.line - b.line || a.name.localeCompare(b.name)

const severities = ['error', 'warning', 'information', 'hint'] as const
/** A diagnostic's line, severity and message; a schema that did not load is compared without the reason (the bare client refuses differently). */
const diagnosticKey = (line: number, severity: string, message: string) =>
  `${line + 1} ${severity} ${message.replace(/^(Unable to load schema from '[^']*'):.*$/s, '$1')}`

for (const record of records) {
  const located = await record.locate()
  // A server without the helper programs it compares by (bash without ShellCheck or shfmt) is skipped like a
  // missing one, naming what to install; bash.test.ts holds what it says then.
  const lacking = located.found ? Object.values(located.lacking ?? {}) : []
  const missing = located.found ? (lacking.length === 0 ? undefined : lacking.join('; ')) : located.why
  if (missing !== undefined && inCI) {
    test(`${record.language}: its server`, () => expect(missing, 'under CI=true every built-in server must be installed').toBeUndefined())
  }
  const places: Array<{ name: string; open: () => { root: string; remove: () => void }; files: ReadonlyArray<string> }> = [
    {
      name: `fixture ${record.fixture}`,
      open: () => copyFixture(record.fixture ?? `(${record.id} has no fixture)`),
      files: samples[record.id]?.fixture ?? [],
    },
  ]
  if (corpora !== undefined) {
    for (const [corpus, files] of Object.entries(samples[record.id]?.corpus ?? {})) {
      places.push({ name: `corpus ${corpus}`, open: () => unpackCorpus(corpus), files })
    }
  } else if (inCI) {
    test(`${record.language}: the corpora`, () => expect(corpora, 'under CI=true the corpora folder must be there').toBeDefined())
  }

  describe.skipIf(missing !== undefined)(`${record.language} (${record.server}) against its bare server`, () => {
    for (const place of places) {
      describe(place.name, () => {
        let lsp: LspService
        let bare: BareServer
        let stop: (() => Promise<void>) | undefined
        let copy: { root: string; remove: () => void }
        beforeAll(async () => {
          copy = place.open()
          ;({ lsp, bare, stop } = await startSeamAndBare(record, copy.root))
        }, 120_000)
        afterAll(async () => {
          await stop?.()
          copy?.remove()
        })

        test.each(place.files.map((file) => [file]))('%s: outline, diagnostics and formatting', async (file) => {
          const path = nodePath.join(copy.root, file)
          const owner = lsp.providerFor(path)
          expect(owner?.providerId, `${file} is served by the record`).toBe(`local:${record.id}`)
          const languageId = owner?.languageId ?? ''
          const bareDiagnostics = await bare.open(path, languageId)

          // Diagnostics first: the seam's first answer, the current version, no waiting for a later pass.
          const diagnostics = await lsp.query({ operation: 'diagnostics', root: copy.root, path })
          const seamKeys = diagnostics.files
            .flatMap((f) => f.diagnostics)
            .map((d) => diagnosticKey(d.range.start.line, d.severity, d.message))
            .sort()
          const bareKeys = bareDiagnostics
            .map((d) =>
              diagnosticKey(
                d.range.start.line,
                severities[(d.severity ?? 1) - 1] ?? 'error',
                // The seam says a path inside the workspace relative to its root (the Markdown server's missing files).
                (typeof d.message === 'string' ? d.message : d.message.value).replaceAll(`${copy.root}/`, ''),
              ),
            )
            .sort()
          expect(seamKeys, `${file}: diagnostics`).toEqual(bareKeys)
          for (const d of diagnostics.files.flatMap((f) => f.diagnostics))
            if (d.message.startsWith('Unable to load schema')) expect(d.message).toContain('codeseam downloads nothing')
          if (file.startsWith('broken')) expect(seamKeys.length, `${file} is broken`).toBeGreaterThan(0)

          const symbols = await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
          const outline = seamOutline(symbols.symbols)
          // The bare server's labels, named as the record names them (Markdown headers without their markers).
          const expected = await bare.outline(path, record.symbolName)
          // A flat answer is compared as the set of its symbols (the seam nests them by range).
          if (expected.flat) expect(flatten(outline).sort(byLine), `${file}: outline`).toEqual(expected.outline.sort(byLine))
          else expect(outline, `${file}: outline`).toEqual(expected.outline)
          expect(outline.length, `${file} has an outline`).toBeGreaterThan(0)

          // Formatting: the text after the seam's edit is the text after the bare server's (the Markdown server has none).
          if (record.support.format !== true) return
          const text = readFileSync(path, 'utf8')
          try {
            const formatted = await lsp.query({ operation: 'format', root: copy.root, path, options: { tabSize: 2, insertSpaces: true } })
            const op = formatted.edit.operations.find((o) => o.type === 'edit')
            const after = op?.type === 'edit' ? applyTextEdits(text, op.edits) : text
            expect(after, `${file}: formatted`).toBe(await bare.formatted(path))
          } catch (error) {
            // Neither formats a file that does not parse.
            if (!(isLspError(error) && file.startsWith('broken'))) throw error
          }
        })
      })
    }
  })
  if (missing !== undefined) console.log(`SKIPPED ${record.language}: ${missing}`)
}

describe.skipIf(records.length === 0)('schemas are never downloaded', () => {
  test('a remote schema a YAML or JSON file names is not fetched through the seam; the bare YAML server fetches it', async () => {
    const requests: string[] = []
    const server = createServer((request, response) => {
      requests.push(request.url ?? '')
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ type: 'object', properties: { name: { type: 'number' } } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const copy = copyFixture('yaml-basic')
    writeFileSync(
      nodePath.join(copy.root, 'remote.yml'),
      `# yaml-language-server: $schema=http://127.0.0.1:${port}/yaml.json\nname: text\n`,
    )
    writeFileSync(nodePath.join(copy.root, 'remote.json'), `{ "$schema": "http://127.0.0.1:${port}/json.json", "name": "text" }\n`)
    const host = await createLocalHost()
    const lsp = createLsp()
    try {
      // Trusted: even there nothing is downloaded.
      await host.attach(lsp, [{ root: copy.root, trust: 'trusted' }])
      for (const file of ['remote.yml', 'remote.json']) {
        const path = nodePath.join(copy.root, file)
        await lsp.query({ operation: 'diagnostics', root: copy.root, path })
        await lsp.query({ operation: 'hover', root: copy.root, path, position: { line: file.endsWith('.yml') ? 1 : 0, character: 2 } })
      }
      expect(requests, 'requests the schema server received through the seam').toEqual([])
      // The same YAML file, bare: the server downloads the schema on its own (what codeseam stops).
      const yaml = records.find((r) => r.id === 'yaml') as LanguageRecord
      const bare = await BareServer.start(yaml, copy.root, 'record')
      try {
        // It validates once the schema is in, so its first diagnostics come after the download.
        await bare.open(nodePath.join(copy.root, 'remote.yml'), 'yaml')
        expect(requests).toContain('/yaml.json')
      } finally {
        bare.dispose()
      }
    } finally {
      await lsp.dispose()
      await host.dispose()
      copy.remove()
      server.close()
    }
  }, 120_000)

  test.skipIf(taplo === undefined || !taploFound)(
    'taplo: the schema catalog it loads while answering initialize, and a #:schema URL, never leave through the seam; bare taplo fetches the catalog',
    async () => {
      // A recording HTTP proxy: every request line (`CONNECT www.schemastore.org:443 …`, `GET http://…`) is kept.
      const seen: string[] = []
      const proxy = createNetServer((socket) => {
        socket.once('data', (chunk: Buffer) => {
          seen.push(chunk.toString('latin1').split('\r\n')[0] ?? '')
          socket.destroy()
        })
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
      const copy = copyFixture('toml-basic')
      writeFileSync(nodePath.join(copy.root, 'remote.toml'), '#:schema http://schemas.invalid/remote.json\nname = "x"\n')
      const saved = { HTTPS_PROXY: process.env['HTTPS_PROXY'], HTTP_PROXY: process.env['HTTP_PROXY'] }
      // The host's own environment names the recording proxy, as a user's might: the server must not use it.
      process.env['HTTPS_PROXY'] = proxyUrl
      process.env['HTTP_PROXY'] = proxyUrl
      const host = await createLocalHost({ envAllow: ['HTTPS_PROXY', 'HTTP_PROXY'] })
      const lsp = createLsp()
      try {
        await host.attach(lsp, [{ root: copy.root, trust: 'trusted' }])
        const path = nodePath.join(copy.root, 'remote.toml')
        await lsp.query({ operation: 'diagnostics', root: copy.root, path })
        await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
        expect(seen, 'requests the proxy received through the seam').toEqual([])
        // Bare, with taplo's own defaults and the same proxy: it loads the schema store catalog at initialize.
        const located = await (taplo as LanguageRecord).locate()
        const child = spawn(located.command, ['lsp', 'stdio'], {
          cwd: copy.root,
          env: { ...process.env, HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl },
          stdio: ['pipe', 'pipe', 'ignore'],
        })
        const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
        connection.listen()
        try {
          const connected = new Promise<void>((resolve) => proxy.on('connection', () => resolve()))
          await connection.sendRequest(InitializeRequest.type, {
            processId: process.pid,
            rootUri: pathToUri(copy.root),
            workspaceFolders: [{ uri: pathToUri(copy.root), name: 'bare' }],
            capabilities: {},
          })
          await connected
          expect(seen.join('\n')).toMatch(/schemastore/)
        } finally {
          connection.dispose()
          child.kill()
        }
      } finally {
        process.env['HTTPS_PROXY'] = saved.HTTPS_PROXY
        process.env['HTTP_PROXY'] = saved.HTTP_PROXY
        if (saved.HTTPS_PROXY === undefined) delete process.env['HTTPS_PROXY']
        if (saved.HTTP_PROXY === undefined) delete process.env['HTTP_PROXY']
        await lsp.dispose()
        await host.dispose()
        copy.remove()
        proxy.close()
      }
    },
    120_000,
  )
})
