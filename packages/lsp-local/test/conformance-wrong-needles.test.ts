import { afterAll, expect, test } from 'vitest'
import { formatConformanceReport, runConformance, typeScriptFixture, type ConformanceFixture } from '@codeseam/lsp/testing'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck } from './helpers.js'

const hosts: LocalHost[] = []
const leaks = new LeakCheck()
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()))
  expect(await leaks.survivors()).toEqual([])
})

const ts = typeScriptFixture as Required<ConformanceFixture>
const shapes = 'src/shapes.ts'
const geometry = 'src/geometry.ts'
const main = 'src/main.ts'

/**
 * The TypeScript record with every needle moved to text that is in the fixture but wrong for its check (or
 * every expectation changed to what the server will not answer): each check must now fail against the real
 * server, which shows each one can fail.
 */
const wrong: ConformanceFixture = {
  ...ts,
  definition: { ...ts.definition, declaration: { file: geometry, text: 'export function drawAll' } },
  nonAscii: { ...ts.nonAscii, declaration: { file: main, text: 'export const decorated' }, name: 'naiveCafe' },
  typeDefinition: { ...ts.typeDefinition, type: { file: shapes, text: 'export class Square' } },
  implementation: {
    ...ts.implementation,
    implementations: [...ts.implementation.implementations, { file: shapes, text: 'export const renameMe' }],
  },
  references: { ...ts.references, word: 'renameMe' },
  hover: { ...ts.hover, includes: ['totalArea', 'string'] },
  signatureHelp: { ...ts.signatureHelp, label: 'radius' },
  completion: { ...ts.completion, labels: ['radius', 'perimeter'] },
  keyword: { file: shapes, text: 'renameMe =', at: 'renameMe' },
  rename: { ...ts.rename, name: 'totalArea' },
  unformatted: { file: main, text: 'export const wrongType' },
  documentSymbols: { ...ts.documentSymbols, symbols: [{ name: 'Shape', kind: 'class' }] },
  typeError: { file: main, text: 'export const radiusSquared' },
  inlayHints: { file: 'src/absent.ts' },
  codeAction: { ...ts.codeAction, title: 'extract to function' },
  workspaceSymbol: { ...ts.workspaceSymbol, kind: 'interface' },
  callHierarchy: { ...ts.callHierarchy, caller: 'render' },
  typeHierarchy: { ...ts.typeHierarchy, supertype: 'Circle' },
}

test('every check the TypeScript record drives fails when its needle points at the wrong text', async () => {
  const report = await runConformance({
    fixture: wrong,
    setup: async (root) => {
      const host = await createLocalHost()
      hosts.push(host)
      const workspace = await host.openWorkspace(root, { trust: 'trusted' })
      const provider = host.providers.find((p) => p.id === 'local:typescript')
      if (provider === undefined) throw new Error('no typescript provider')
      return {
        provider,
        workspace,
        dispose: async () => {
          await leaks.record()
          await host.dispose()
        },
      }
    },
  })
  const text = formatConformanceReport(report)
  console.log(text)
  const driven = report.checks.filter((c) => c.id !== undefined)
  // Every record-driven check ran and failed, except declaration: the native server does not claim it.
  expect(
    driven.filter((c) => c.status !== 'failed').map((c) => `${c.id}: ${c.status}`),
    text,
  ).toEqual(['declaration: skipped'])
  // The kit's own contract checks are untouched by the record.
  expect(
    report.checks.filter((c) => c.id === undefined && c.status !== 'passed'),
    text,
  ).toEqual([])
})
