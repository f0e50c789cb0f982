/**
 * The GraphQL record's own parts: which graphql-config a root's server is answered with (the root's own, else
 * codeseam's, written in codeseam's cache and naming only the root's GraphQL files), which command lines are its, and
 * the first question after the start, with no document open, answered from the loaded config (the bare server answers
 * empty lists until its config is loaded, without a word; readiness waits for the load, reported as progress by the
 * entry codeseam starts it through — the host's agreement rule for workspace-wide answers would also mask it).
 */
import { createLsp } from '@codeseam/lsp'
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { graphqlRootSettings } from '../src/languages/graphql/config.js'
import { graphqlRecord, serverEntry } from '../src/languages/graphql/record.js'
import { cleanupsAfterEach } from './support/cleanups.js'

const fixture = fileURLToPath(new URL('../../lsp/fixtures/conformance-graphql', import.meta.url))
const cleanups = cleanupsAfterEach()

/** A copy of the GraphQL conformance fixture in a fresh temp folder (canonical path). */
function copyFixture(): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-graphql-')))
  cpSync(fixture, root, { recursive: true })
  cleanups.push(() => rmSync(root, { recursive: true, force: true }))
  return root
}

test("a root without a graphql-config gets codeseam's, outside the root, naming only the root's GraphQL files", () => {
  const root = copyFixture()
  const settings = graphqlRootSettings(root, { other: 1 })
  const load = (settings['graphql-config'] as { load: { filepath: string; rootDir: string } }).load
  expect(settings['other']).toBe(1)
  expect(load.rootDir).toBe(root)
  expect(load.filepath.startsWith(`${root}/`)).toBe(false)
  const config = JSON.parse(readFileSync(load.filepath, 'utf8')) as { schema: string[]; documents: string[] }
  expect(config.documents).toEqual(config.schema)
  for (const pointer of config.schema)
    expect(pointer).toMatch(new RegExp(`^!?${root}/\\*\\*/(node_modules/\\*\\*/)?\\*\\.(graphql|graphqls|gql)$`))
})

test('a root with a graphql-config of its own, or a profile naming a file, keeps the settings as they are', () => {
  const root = copyFixture()
  writeFileSync(`${root}/.graphqlrc.yml`, 'schema: schema.graphql\n')
  expect(graphqlRootSettings(root, {})).toEqual({})
  rmSync(`${root}/.graphqlrc.yml`)
  writeFileSync(`${root}/package.json`, JSON.stringify({ name: 'x', graphql: { schema: 'schema.graphql' } }))
  expect(graphqlRootSettings(root, {})).toEqual({})
  writeFileSync(`${root}/package.json`, JSON.stringify({ name: 'x' }))
  const named = { 'graphql-config': { load: { filepath: '/elsewhere/graphql.json' } } }
  expect(graphqlRootSettings(root, named)).toEqual(named)
  expect(graphqlRootSettings(root, {})['graphql-config']).toBeDefined()
})

test('a user profile running the server by its script or its bin takes the record; another script does not', () => {
  const script = '/opt/n/node_modules/graphql-language-service-cli/bin/graphql.js'
  expect(graphqlRecord.recognizes('node', [script, 'server', '-m', 'stream'])).toBe(true)
  expect(graphqlRecord.recognizes('node', [...serverEntry(script), 'server', '-m', 'stream'])).toBe(true)
  expect(graphqlRecord.recognizes('/usr/local/bin/graphql-lsp', ['server', '-m', 'stream'])).toBe(true)
  expect(graphqlRecord.recognizes('node', ['/opt/other/bin/graphql.js', 'server'])).toBe(false)
})

const missing = (await builtinProfiles()).find((p) => p.id === 'graphql')?.unavailable

test('the first question after the start, workspace symbols with no document open, is answered from the loaded config', async ({
  skip,
}) => {
  skip(missing !== undefined, `graphql: ${missing}`)
  const root = copyFixture()
  const host = await createLocalHost()
  const lsp = createLsp()
  cleanups.push(
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root, trust: 'untrusted' }])
  const result = await lsp.query({ operation: 'workspaceSymbols', root, query: 'Author' })
  expect(result.symbols.map((s) => `${s.name} ${s.location.path}`)).toContain(`Author ${root}/schema.graphql`)
}, 60_000)

test('untrusted, a profile whose entry script lies in the workspace (not its first operand) is refused', async () => {
  const root = copyFixture()
  writeFileSync(`${root}/graphql.js`, "require('node:fs').writeFileSync(__dirname + '/entry.marker', 'ran')\n")
  const host = await createLocalHost({
    profiles: [{ id: 'graphql', command: process.execPath, args: [fileURLToPath(import.meta.url), `${root}/graphql.js`, 'server'] }],
  })
  const lsp = createLsp()
  cleanups.push(
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root, trust: 'untrusted' }])
  await expect(lsp.query({ operation: 'documentSymbols', root, path: 'schema.graphql' })).rejects.toMatchObject({ code: 'UNTRUSTED' })
  expect(existsSync(`${root}/entry.marker`)).toBe(false)
})
