import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import { createLsp, TextLines, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost } from '@codeseam/lsp-local'

import { createIndexProvider, readScipIndex } from '../src/index.js'
import { indexerVersion, indexWorkspace } from './indexer.js'

// The differences docs/index.md lists between the index's answers and the native TypeScript server's, each shown
// here on a workspace written for it: if one goes away (a new indexer or server), its test fails and the list shrinks.

const widget = `/** A widget. */
export class Widget {
  size = 1
}

/** Makes one; see {@link Widget}. */
export function make(): Widget {
  return new Widget()
}

export const label = 'widget'
`

let root: string
let host: LocalHost
let live: LspService
let fromIndex: LspService
let disposeIndex: () => Promise<void>

beforeAll(async () => {
  root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-differences-')))
  await mkdir(nodePath.join(root, 'src'))
  await writeFile(nodePath.join(root, 'src/widget.ts'), widget)
  await writeFile(nodePath.join(root, 'package.json'), '{ "name": "differences", "private": true, "type": "module" }\n')
  await writeFile(nodePath.join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n')
  const built = await indexWorkspace(root)
  disposeIndex = built.dispose
  fromIndex = createLsp()
  fromIndex.registerProvider(createIndexProvider({ index: await readScipIndex(built.path), root }))
  host = await createLocalHost()
  live = createLsp()
  await host.attach(live, [{ root, trust: 'trusted' }])
}, 180_000)

afterAll(async () => {
  await live?.dispose()
  await host?.dispose()
  await fromIndex?.dispose()
  await disposeIndex?.()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const at = (needle: string, offset = 0) => new TextLines(widget).positionAt(widget.indexOf(needle) + offset)
const lines = (locations: ReadonlyArray<{ range: { start: { line: number } } }>) =>
  [...new Set(locations.map((l) => l.range.start.line + 1))].sort()

test(
  `JSDoc mentions ({@link Widget}) are references to the server, not in a scip-typescript ${indexerVersion} index`,
  { timeout: 120_000 },
  async () => {
    const request = { operation: 'references', root, path: 'src/widget.ts', position: at('class Widget', 6) } as const
    const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
    const mention = at('{@link Widget}').line + 1
    expect(lines(server.locations)).toContain(mention)
    expect(lines(index.locations)).not.toContain(mention)
    // Everything else is the same: declaration, return type, `new` call.
    expect(lines(index.locations)).toEqual(lines(server.locations).filter((line) => line !== mention))
  },
)

test("hover text is rendered by the indexer's TypeScript (5.9, `var` for a `const`), not the server's", { timeout: 120_000 }, async () => {
  const request = { operation: 'hover', root, path: 'src/widget.ts', position: at('const label', 6) } as const
  const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  expect(index.hover?.contents).toContain('var label: "widget"')
  expect(server.hover?.contents).toContain('const label: "widget"')
})
