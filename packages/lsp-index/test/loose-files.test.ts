import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import type { LspLocation, LspService } from '@codeseam/lsp'

import { indexedProjects, looseProjectConfig, readScipIndex, ScipIndex, workspaceFiles } from '../src/index.js'
import { indexAndLive, indexWorkspace, type IndexAndLive } from './indexer.js'

// Files of no project (docs/index.md, "Files of no project"): a workspace whose one project excludes a folder of
// fixtures, with a script beside it that no tsconfig.json holds and a build output folder. Indexed as `codeseam index`
// indexes it (the projects, then the files of no project in a generated inferred project), the index holds the script
// and the excluded fixture, and its references, asked from a project's file or from the file of no project, equal the
// live server's (the native TypeScript server through lsp-local, which loads the files of no project too).

const files: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "loose-demo", "version": "1.0.0", "private": true }\n',
  'packages/core/package.json': '{ "name": "@demo/core", "version": "1.0.0" }\n',
  'packages/core/tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', noEmit: true },
      include: ['src'],
      exclude: ['src/__fixtures__'],
    },
    null,
    2,
  )}\n`,
  'packages/core/src/client.ts': [
    'export class Client {',
    '  fetch(key: string): string {',
    '    return key',
    '  }',
    '}',
    '',
    'export function makeClient(): Client {',
    '  return new Client()',
    '}',
    '',
  ].join('\n'),
  'packages/core/src/use.ts': [
    "import { Client, makeClient } from './client'",
    '',
    'export const client: Client = makeClient()',
    "export const value = client.fetch('a')",
    '',
  ].join('\n'),
  'packages/core/src/__fixtures__/sample.ts': [
    "import { makeClient } from '../client'",
    '',
    "export const sample = makeClient().fetch('sample')",
    '',
  ].join('\n'),
  'scripts/seed.ts': [
    "import { Client, makeClient } from '../packages/core/src/client'",
    '',
    'const seeded: Client = makeClient()',
    "seeded.fetch('seed')",
    'export const again = new Client()',
    '',
  ].join('\n'),
  'packages/core/dist/bundle.js': 'export const built = 1\n',
}

let root: string
let sides: IndexAndLive | undefined
let live: LspService
let fromIndex: LspService
let scip: ScipIndex
let loose: string[]
let keyedBefore: Map<string, string>
let disposeIndex: (() => Promise<void>) | undefined

beforeAll(async () => {
  root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-loose-')))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  keyedBefore = await workspaceFiles(root)
  const built = await indexWorkspace(root, indexedProjects(root, keyedBefore), { files: keyedBefore })
  disposeIndex = built.dispose
  loose = built.loose
  scip = new ScipIndex(await readScipIndex(built.path))
  sides = await indexAndLive(root, scip, 'untrusted')
  ;({ fromIndex, live } = sides)
}, 180_000)

afterAll(async () => {
  await sides?.dispose()
  await disposeIndex?.()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
})

/** The position of `at` (default: `text` itself) inside the first `text` of `file`. */
function find(file: string, text: string, at: string = text) {
  const content = readFileSync(nodePath.join(root, file), 'utf8')
  const start = content.indexOf(text)
  if (start < 0) throw new Error(`${text} is not in ${file}`)
  const offset = start + text.indexOf(at)
  const before = content.slice(0, offset).split('\n')
  return { line: before.length - 1, character: (before.at(-1) ?? '').length }
}

function keys(locations: ReadonlyArray<LspLocation>): string[] {
  const keyOf = (l: LspLocation) =>
    `${nodePath.relative(root, l.path).split(nodePath.sep).join('/')}:${l.range.start.line + 1}:${l.range.start.character}-${l.range.end.character}`
  return [...new Set(locations.map(keyOf))].sort()
}

async function references(file: string, text: string, at?: string) {
  const request = { operation: 'references', root, path: nodePath.join(root, file), position: find(file, text, at) } as const
  const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  return { index: keys(index.locations), server: keys(server.locations) }
}

test('the files of no project are indexed (a project’s excluded fixture, a script), build output is not', () => {
  expect(loose).toEqual(['packages/core/src/__fixtures__/sample.ts', 'scripts/seed.ts'])
  const documents = scip.allDocuments().map((document) => document.relativePath)
  expect(documents).toEqual(expect.arrayContaining(['packages/core/src/client.ts', ...loose]))
  expect(documents).not.toContain('packages/core/dist/bundle.js')
})

test('nothing is written into the workspace', async () => {
  expect(await workspaceFiles(root)).toEqual(keyedBefore)
})

test('the generated config extends nothing and names no plugin', () => {
  const config = JSON.parse(looseProjectConfig(root, ['scripts/seed.ts'])) as Record<string, unknown> & {
    compilerOptions: Record<string, unknown>
  }
  expect(config['extends']).toBeUndefined()
  expect(config.compilerOptions['plugins']).toBeUndefined()
  expect(config['files']).toEqual([nodePath.join(root, 'scripts', 'seed.ts')])
})

const cases: ReadonlyArray<readonly [string, string, string, string?]> = [
  ['a function, asked in its project', 'packages/core/src/client.ts', 'function makeClient', 'makeClient'],
  ['a method, asked in its project', 'packages/core/src/client.ts', 'fetch(key', 'fetch'],
  ['a class, asked in its project', 'packages/core/src/client.ts', 'class Client', 'Client'],
  ['a function, asked in the file of no project', 'scripts/seed.ts', 'makeClient()', 'makeClient'],
  ['a local of the file of no project', 'scripts/seed.ts', 'const seeded', 'seeded'],
]

for (const [what, file, text, at] of cases) {
  test(`references of ${what} equal the live server's, the files of no project included`, { timeout: 120_000 }, async () => {
    const { index, server } = await references(file, text, at)
    expect(index.some((key) => key.startsWith('scripts/seed.ts:'))).toBe(true)
    expect(index).toEqual(server)
  })
}

test('a reference in the excluded fixture is answered from the index', { timeout: 120_000 }, async () => {
  const { index, server } = await references('packages/core/src/__fixtures__/sample.ts', 'makeClient()', 'makeClient')
  expect(index).toContain(
    `packages/core/src/__fixtures__/sample.ts:3:${find('packages/core/src/__fixtures__/sample.ts', 'makeClient()').character}-${find('packages/core/src/__fixtures__/sample.ts', 'makeClient()').character + 'makeClient'.length}`,
  )
  expect(index).toEqual(server)
})
