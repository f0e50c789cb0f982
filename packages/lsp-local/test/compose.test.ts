import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspDocumentSymbol } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { composeFileNames } from '../src/languages/compose/record.js'

/*
 * Docker Compose (issue 49): Compose files are YAML, so they are routed by name (`compose.yaml`, `docker-compose.yml`,
 * their `.override` files) to compose-language-service, which has no outline: the YAML server answers it beside, as
 * its companion. Every other YAML file stays the YAML record's.
 */

const names = (symbols: ReadonlyArray<LspDocumentSymbol>): unknown =>
  symbols.map((s) => (s.children.length === 0 ? s.name : { [s.name]: names(s.children) }))

function workspace(): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-compose-')))
  cpSync(nodePath.join(import.meta.dirname, '../../lsp/fixtures/conformance-dockercompose'), root, { recursive: true })
  const service = 'services:\n  worker:\n    image: busybox\n'
  writeFileSync(nodePath.join(root, 'docker-compose.override.yml'), service)
  // A Compose file by content but not by name stays YAML; so does any other YAML file.
  writeFileSync(nodePath.join(root, 'docker-compose.prod.yml'), service)
  writeFileSync(nodePath.join(root, 'settings.yaml'), 'name: not-compose\nitems:\n  - one\n')
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

describe('Compose files by name, other YAML files by extension', () => {
  let host: LocalHost
  const lsp = createLsp()
  let ws: { root: string; remove: () => void }
  beforeAll(async () => {
    ws = workspace()
    host = await createLocalHost()
    await host.attach(lsp, [{ root: ws.root }])
  })
  afterAll(async () => {
    await lsp.dispose()
    await host.dispose()
    ws.remove()
  })

  test('routing: the Compose names to the compose record, the rest to the YAML record', () => {
    expect(composeFileNames).toContain('compose.yaml')
    expect(composeFileNames).toContain('docker-compose.override.yml')
    const owner = (file: string) => lsp.providerFor(nodePath.join(ws.root, file))
    expect(owner('compose.yaml')).toMatchObject({ providerId: 'local:compose', languageId: 'dockercompose' })
    expect(owner('broken/docker-compose.yml')).toMatchObject({ providerId: 'local:compose', languageId: 'dockercompose' })
    expect(owner('docker-compose.override.yml')).toMatchObject({ providerId: 'local:compose' })
    expect(owner('docker-compose.prod.yml')).toMatchObject({ providerId: 'local:yaml', languageId: 'yaml' })
    expect(owner('settings.yaml')).toMatchObject({ providerId: 'local:yaml', languageId: 'yaml' })
  })

  test("a Compose file's outline is the YAML server's, its hover the Compose server's", { timeout: 60_000 }, async () => {
    const path = nodePath.join(ws.root, 'compose.yaml')
    const outline = await lsp.query({ operation: 'documentSymbols', root: ws.root, path })
    expect(outline.meta.providerId).toBe('local:compose')
    expect(names(outline.symbols)).toEqual([
      { services: [{ web: ['image', { ports: ['0'] }, { depends_on: ['0'] }] }, { api: ['build', { environment: ['LOG_LEVEL'] }] }] },
      { volumes: ['data'] },
    ])
    const hover = await lsp.query({ operation: 'hover', root: ws.root, path, position: { line: 2, character: 5 } })
    // Compose's own key documentation: the YAML server (no schemas) has no hover at all.
    expect(hover.hover?.contents).toMatch(/image that will be pulled/)
  })

  test('a plain YAML file is still answered by the YAML record', { timeout: 60_000 }, async () => {
    const outline = await lsp.query({ operation: 'documentSymbols', root: ws.root, path: nodePath.join(ws.root, 'settings.yaml') })
    expect(outline.meta.providerId).toBe('local:yaml')
    expect(names(outline.symbols)).toEqual(['name', { items: ['0'] }])
    const prod = await lsp.query({ operation: 'documentSymbols', root: ws.root, path: nodePath.join(ws.root, 'docker-compose.prod.yml') })
    expect(prod.meta.providerId).toBe('local:yaml')
  })
})

test('with the YAML record turned off, Compose files are still served, without an outline', { timeout: 60_000 }, async () => {
  const ws = workspace()
  const host = await createLocalHost({ profiles: [{ id: 'yaml', enabled: false }] })
  const lsp = createLsp()
  try {
    await host.attach(lsp, [{ root: ws.root }])
    const path = nodePath.join(ws.root, 'compose.yaml')
    await expect(lsp.query({ operation: 'documentSymbols', root: ws.root, path })).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' })
    const diagnostics = await lsp.query({
      operation: 'diagnostics',
      root: ws.root,
      path: nodePath.join(ws.root, 'broken/docker-compose.yml'),
    })
    expect(diagnostics.files.flatMap((f) => f.diagnostics).map((d) => d.range.start.line)).toEqual([3])
  } finally {
    await lsp.dispose()
    await host.dispose()
    ws.remove()
  }
})
