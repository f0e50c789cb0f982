import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { indexStoreDirectory, rootPrefix, staleDocuments, type DocumentFreshness, type StoredIndex } from '@codeseam/lsp-index'
import { builtinIndexers } from '@codeseam/lsp-local'
import { copyFixture } from '@codeseam/lsp/testing'
import type { LspResultFor } from '@codeseam/lsp'
import { afterAll, expect, test } from 'vitest'

import { runBuiltCli } from './support/mcp-process.js'

// The two examples of docs/index.md run as written, on a copy of the seam's TypeScript fixture standing for
// `/abs/project`, after `codeseam index` stored its index (the real indexer, as cli-index.e2e.test.ts runs it).

const here = nodePath.dirname(fileURLToPath(import.meta.url))
const docs = await readFile(nodePath.resolve(here, '../../../docs/index.md'), 'utf8')
const indexer = (await builtinIndexers()).find((i) => i.language.includes('TypeScript'))
const installed = indexer?.found === true
if (!installed && process.env['CI'] === 'true') throw new Error(`CI=true and the indexer is missing: codeseam install ${indexer?.id ?? ''}`)

let root: string | undefined
afterAll(async () => {
  if (root === undefined) return
  const store = indexStoreDirectory()
  for (const name of (await readdir(store).catch(() => [] as string[])).filter((n) => n.startsWith(`${rootPrefix(root ?? '')}-`)))
    await rm(nodePath.join(store, name), { recursive: true, force: true })
  await rm(root, { recursive: true, force: true })
})

/** The ```ts block after the first line of docs/index.md that contains `after`. */
function example(after: string): string {
  const at = docs.indexOf(after)
  expect(at, after).toBeGreaterThan(-1)
  const open = docs.indexOf('```ts\n', at) + '```ts\n'.length
  return docs.slice(open, docs.indexOf('\n```', open))
}

/** Runs an example as a module of this package (so its imports resolve as a user's would) and returns its names. */
async function run(code: string, names: ReadonlyArray<string>): Promise<Record<string, unknown>> {
  const folder = await mkdtemp(nodePath.join(here, '..', '.docs-example-'))
  const file = nodePath.join(folder, 'example.mjs')
  await writeFile(file, `${code}\nexport { ${names.join(', ')} }\n`)
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

test.skipIf(!installed)("docs/index.md's examples run as written", { timeout: 180_000 }, async () => {
  root = (await copyFixture()).root
  const built = await runBuiltCli(['index', '--root', root], { cwd: root, env: process.env, deadlineMs: 150_000 })
  expect(built.code, built.stderr).toBe(0)
  const project = (code: string) => code.replaceAll("'/abs/project", `'${root}`)

  // The store: after an edit, the edited file is the one to answer from a live server, as the comment says.
  await writeFile(nodePath.join(root, 'src/shapes.ts'), `${await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')}\n// edited\n`)
  const store = await run(project(example('A composition finds the entry of a root')), ['stored', 'freshness'])
  const stored = store['stored'] as StoredIndex
  expect(stored.sidecar.root).toBe(root)
  expect(staleDocuments(store['freshness'] as ReadonlyMap<string, DocumentFreshness>)).toEqual(['src/shapes.ts'])

  // By hand: the stored index registered on a ctx.lsp; the documented position is `Circle` in the fixture.
  const byHand = example('### Using an index by hand')
  const text = (await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).split('\n')
  const line = text.findIndex((l) => l.includes('export class Circle implements Shape'))
  expect(byHand).toContain(`position: { line: ${line}, character: ${text[line]?.indexOf('Circle')} }`)
  const answered = await run(project(byHand).replace(`'${root}.scip'`, JSON.stringify(stored.indexPath)), ['refs', 'lsp'])
  const refs = answered['refs'] as LspResultFor<'references'>
  await (answered['lsp'] as { dispose(): Promise<void> }).dispose()
  expect(new Set(refs.locations.map((l) => nodePath.relative(root ?? '', l.path)))).toEqual(new Set(['src/shapes.ts', 'src/main.ts']))
})
