import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, pathToUri, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { InlayHintRequest, type Diagnostic, type InlayHint } from 'vscode-languageserver-protocol/node'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { basedPyrightRecord } from '../src/languages/basedpyright/record.js'
import { BareServer, type Outline } from './config-bare-server.js'
import { copyFixture } from './helpers.js'
import { corporaFolder, unpackCorpus } from './oracle/workspaces.js'

/*
 * basedpyright, the opt-in alternative to pyright (issue 30): turned on in pyright's place, its first answers through
 * the seam — outline, diagnostics, inlay hints (what it has that pyright lacks) — equal what the bare server says on
 * the same files, started from the record with codeseam's untrusted spawn plan. ruff's diagnostics (the companion
 * codeseam adds beside it) are left out of the comparison. The conformance kit runs it on the Python fixture
 * (conformance.test.ts).
 */

const located = await basedPyrightRecord.locate()
const inCI = process.env['CI'] === 'true'
const corpora = corporaFolder()
const places: ReadonlyArray<{ name: string; open: () => { root: string; remove: () => void }; files: ReadonlyArray<string> }> = [
  { name: 'fixture py-basic', open: () => copyFixture('py-basic'), files: ['pkg/main.py', 'pkg/shapes.py', 'pkg/broken.py'] },
  ...(corpora === undefined
    ? []
    : [{ name: 'corpus flask', open: () => unpackCorpus('flask'), files: ['src/flask/helpers.py', 'src/flask/config.py'] }]),
]

if (!located.found && inCI) test('basedpyright is installed', () => expect(located.found ? undefined : located.why).toBeUndefined())
if (!located.found) console.log(`SKIPPED basedpyright: ${located.why}`)

const severities = ['error', 'warning', 'information', 'hint'] as const
const outlineOf = (
  symbols: ReadonlyArray<{ name: string; selectionRange: { start: { line: number } }; children?: ReadonlyArray<any> }>,
): Outline => symbols.map((s) => ({ name: s.name, line: s.selectionRange.start.line, children: outlineOf(s.children ?? []) }))
const labelOf = (label: string | ReadonlyArray<{ value: string }>) =>
  typeof label === 'string' ? label : label.map((p) => p.value).join('')

describe.skipIf(!located.found)('basedpyright in place of pyright, against its bare server', () => {
  for (const place of places) {
    describe(place.name, () => {
      let copy: { root: string; remove: () => void }
      let host: LocalHost
      let lsp: LspService
      let bare: BareServer
      beforeAll(async () => {
        copy = place.open()
        host = await createLocalHost({
          profiles: [
            { id: 'basedpyright', enabled: true },
            { id: 'pyright', enabled: false },
          ],
        })
        lsp = createLsp()
        await host.attach(lsp, [{ root: copy.root, trust: 'untrusted' }])
        bare = await BareServer.start(basedPyrightRecord, copy.root)
      }, 120_000)
      afterAll(async () => {
        bare?.dispose()
        await lsp?.dispose()
        await host?.dispose()
        copy?.remove()
      })

      test.each(place.files.map((file) => [file]))('%s: outline, diagnostics and inlay hints', async (file) => {
        const path = nodePath.join(copy.root, file)
        expect(lsp.providerFor(path)?.providerId).toBe('local:basedpyright')
        const bareDiagnostics: Diagnostic[] = await bare.open(path, 'python')

        const diagnostics = await lsp.query({ operation: 'diagnostics', root: copy.root, path })
        const seamKeys = diagnostics.files
          .flatMap((f) => f.diagnostics)
          .filter((d) => d.source !== 'Ruff')
          .map((d) => `${d.range.start.line + 1} ${d.severity} ${d.message}`)
          .sort()
        const bareKeys = bareDiagnostics
          .map((d) => `${d.range.start.line + 1} ${severities[(d.severity ?? 1) - 1]} ${typeof d.message === 'string' ? d.message : ''}`)
          .sort()
        expect(seamKeys, `${file}: diagnostics`).toEqual(bareKeys)
        if (file.includes('broken')) expect(seamKeys.length, `${file} is broken`).toBeGreaterThan(0)

        const outline = await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
        expect(outlineOf(outline.symbols), `${file}: outline`).toEqual((await bare.outline(path)).outline)

        const range = { start: { line: 0, character: 0 }, end: endOf(path) }
        const hints = await lsp.query({ operation: 'inlayHints', root: copy.root, path, range })
        const bareHints: InlayHint[] =
          (await bare.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri: pathToUri(path) }, range })) ?? []
        const key = (h: { position: { line: number; character: number }; label: string | ReadonlyArray<{ value: string }> }) =>
          `${h.position.line + 1}:${h.position.character + 1} ${labelOf(h.label)}`
        expect(hints.hints.map(key).sort(), `${file}: inlay hints`).toEqual(bareHints.map(key).sort())
      })
    })
  }

  test('inlay hints are answered (pyright has none), and pyright does not run beside it', async () => {
    const copy = copyFixture('py-basic')
    const host = await createLocalHost({
      profiles: [
        { id: 'basedpyright', enabled: true },
        { id: 'pyright', enabled: false },
      ],
    })
    const lsp = createLsp()
    try {
      await host.attach(lsp, [{ root: copy.root, trust: 'untrusted' }])
      const path = nodePath.join(copy.root, 'pkg/main.py')
      const hints = await lsp.query({
        operation: 'inlayHints',
        root: copy.root,
        path,
        range: { start: { line: 0, character: 0 }, end: endOf(path) },
      })
      expect(hints.hints.length).toBeGreaterThan(0)
      expect(lsp.status().find((s) => s.providerId === 'local:pyright')).toBeUndefined()
    } finally {
      await lsp.dispose()
      await host.dispose()
      copy.remove()
    }
  }, 120_000)
})

/** The position just past a file's last character. */
function endOf(path: string): { line: number; character: number } {
  const lines = readFileSync(path, 'utf8').split('\n')
  return { line: lines.length - 1, character: lines.at(-1)?.length ?? 0 }
}
