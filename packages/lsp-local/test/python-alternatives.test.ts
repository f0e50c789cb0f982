import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, pathToUri, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { InlayHintRequest, type Diagnostic, type InlayHint } from 'vscode-languageserver-protocol/node'

import { createLocalHost } from '../src/index.js'
import { basedPyrightRecord } from '../src/languages/basedpyright/record.js'
import type { LanguageRecord } from '../src/languages/record.js'
import { tyRecord } from '../src/languages/ty/record.js'
import { BareServer, startSeamAndBare, type Outline } from './config-bare-server.js'
import { copyFixture, positionOf } from './helpers.js'
import { corporaFolder, unpackCorpus } from './oracle/workspaces.js'

/*
 * The opt-in alternatives to pyright (issue 30), basedpyright and ty: each turned on in pyright's place, its first
 * answers through the seam — outline, diagnostics, inlay hints (what both have and pyright lacks) — equal what the
 * bare server says on the same files, started from the record with codeseam's untrusted spawn plan. ruff's
 * diagnostics (the companion codeseam adds beside them) are left out of the comparison. The conformance kit runs
 * both on the Python fixture (conformance.test.ts).
 */

const inCI = process.env['CI'] === 'true'
const corpora = corporaFolder()
const places: ReadonlyArray<{ name: string; open: () => { root: string; remove: () => void }; files: ReadonlyArray<string> }> = [
  { name: 'fixture py-basic', open: () => copyFixture('py-basic'), files: ['pkg/main.py', 'pkg/shapes.py', 'pkg/broken.py'] },
  ...(corpora === undefined
    ? []
    : [{ name: 'corpus flask', open: () => unpackCorpus('flask'), files: ['src/flask/helpers.py', 'src/flask/config.py'] }]),
]

const severities = ['error', 'warning', 'information', 'hint'] as const
const outlineOf = (
  symbols: ReadonlyArray<{ name: string; selectionRange: { start: { line: number } }; children?: ReadonlyArray<any> }>,
): Outline => symbols.map((s) => ({ name: s.name, line: s.selectionRange.start.line, children: outlineOf(s.children ?? []) }))
const labelOf = (label: string | ReadonlyArray<{ value: string }>) =>
  typeof label === 'string' ? label : label.map((p) => p.value).join('')

for (const record of [basedPyrightRecord, tyRecord] as ReadonlyArray<LanguageRecord>) {
  const located = await record.locate()
  if (!located.found && inCI) test(`${record.id} is installed`, () => expect(located.found ? undefined : located.why).toBeUndefined())
  if (!located.found) console.log(`SKIPPED ${record.id}: ${located.why}`)

  describe.skipIf(!located.found)(`${record.id} in place of pyright, against its bare server`, () => {
    for (const place of places) {
      describe(place.name, () => {
        let copy: { root: string; remove: () => void }
        let lsp: LspService
        let bare: BareServer
        let stop: (() => Promise<void>) | undefined
        beforeAll(async () => {
          copy = place.open()
          const profiles = [
            { id: record.id, enabled: true },
            { id: 'pyright', enabled: false },
          ]
          ;({ lsp, bare, stop } = await startSeamAndBare(record, copy.root, { profiles }))
        }, 120_000)
        afterAll(async () => {
          await stop?.()
          copy?.remove()
        })

        test.each(place.files.map((file) => [file]))('%s: outline, diagnostics and inlay hints', async (file) => {
          const path = nodePath.join(copy.root, file)
          expect(lsp.providerFor(path)?.providerId).toBe(`local:${record.id}`)
          const bareDiagnostics: Diagnostic[] = await bare.open(path, 'python')

          const diagnostics = await lsp.query({ operation: 'diagnostics', root: copy.root, path })
          const seamKeys = diagnostics.files
            .flatMap((f) => f.diagnostics)
            .filter((d) => d.source !== 'Ruff')
            .map((d) => `${d.range.start.line + 1} ${d.severity} ${d.message}`)
            .sort()
          // The seam says a path inside the workspace relative to its root (ty's module search paths).
          const relative = (message: string) => message.replaceAll(`${copy.root}/`, '').replaceAll(copy.root, '.')
          const bareKeys = bareDiagnostics
            .map(
              (d) =>
                `${d.range.start.line + 1} ${severities[(d.severity ?? 1) - 1]} ${relative(typeof d.message === 'string' ? d.message : '')}`,
            )
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
          { id: record.id, enabled: true },
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
        expect(lsp.providerFor(path)?.providerId).toBe(`local:${record.id}`)
      } finally {
        await lsp.dispose()
        await host.dispose()
        copy.remove()
      }
    }, 120_000)
  })
}

/** The position just past a file's last character. */
function endOf(path: string): { line: number; character: number } {
  const lines = readFileSync(path, 'utf8').split('\n')
  return { line: lines.length - 1, character: lines.at(-1)?.length ?? 0 }
}

describe.skipIf(!(await tyRecord.locate()).found)('ty runs no Python interpreter', () => {
  test("neither the workspace's .venv interpreter nor a python3 on PATH runs, at either trust level", async () => {
    const copy = copyFixture('py-basic')
    const outside = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-ty-path-'))
    const marker = nodePath.join(outside, 'ran')
    // An interpreter that records being run: on the host's PATH, and as the workspace's virtual environment.
    const fake = `#!/bin/sh\necho "$0" >> ${marker}\nexec /usr/bin/env -i python3 "$@"\n`
    for (const name of ['python3', 'python']) {
      writeFileSync(nodePath.join(outside, name), fake)
      chmodSync(nodePath.join(outside, name), 0o755)
    }
    mkdirSync(nodePath.join(copy.root, '.venv', 'bin'), { recursive: true })
    writeFileSync(nodePath.join(copy.root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\nversion = 3.11.0\n')
    writeFileSync(nodePath.join(copy.root, '.venv', 'bin', 'python'), fake)
    chmodSync(nodePath.join(copy.root, '.venv', 'bin', 'python'), 0o755)
    const savedPath = process.env['PATH']
    process.env['PATH'] = `${outside}:${savedPath ?? ''}`
    try {
      for (const trust of ['untrusted', 'trusted'] as const) {
        const host = await createLocalHost({
          profiles: [
            { id: 'ty', enabled: true },
            { id: 'pyright', enabled: false },
          ],
        })
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root: copy.root, trust }])
          const path = nodePath.join(copy.root, 'pkg/main.py')
          const diagnostics = await lsp.query({ operation: 'diagnostics', root: copy.root, path })
          expect(diagnostics.meta.providerId).toBe('local:ty')
          await lsp.query({ operation: 'hover', root: copy.root, path, position: positionOf(copy.root, 'pkg/main.py', 'report') })
        } finally {
          await lsp.dispose()
          await host.dispose()
        }
      }
      expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : 'not run').toBe(false)
      // The fake interpreter does record a run (the check above could fail).
      execFileSync(nodePath.join(outside, 'python3'), ['-c', 'pass'])
      expect(readFileSync(marker, 'utf8')).toContain('python3')
    } finally {
      process.env['PATH'] = savedPath
      copy.remove()
      rmSync(outside, { recursive: true, force: true })
    }
  }, 120_000)
})
