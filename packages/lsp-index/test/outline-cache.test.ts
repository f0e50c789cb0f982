import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { copyFixture } from '@codeseam/lsp/testing'
import { expect, test } from 'vitest'

import { readScipIndexWithTable } from '../src/decode.js'
import { openOutlineCache, outlinesFile, writeOutlineCache } from '../src/outline-cache.js'
import { createIndexProvider } from '../src/provider.js'
import { ScipIndex } from '../src/scip-index.js'
import { indexWorkspace } from './indexer.js'

// The outlines kept beside a store entry (issue 52): what a document's outline is read back as equals what the
// index computes for it, document by document, on the real indexer's output; a cache of another index or of other
// code, or a damaged one, is not used; a cache there is never replaced.

test(
  'outlines read back from the cache equal the ones computed from the index; only its own index’s cache is used',
  { timeout: 180_000 },
  async () => {
    const fixture = await copyFixture()
    const built = await indexWorkspace(fixture.root)
    const entry = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-outlines-'))
    try {
      const read = await readScipIndexWithTable(built.path, nodePath.join(entry, 'table.json'))
      const index = new ScipIndex(read.decoded)
      const { answers } = createIndexProvider({ index, root: fixture.root })
      expect(await writeOutlineCache(entry, answers, read.fingerprint)).toBe(true)
      const file = await outlinesFile(entry)
      // Each build names its file by its code.
      expect(nodePath.basename(file)).toMatch(/^outlines-[0-9a-f]{16}\.bin$/)

      const cache = await openOutlineCache(entry, read.fingerprint)
      expect(cache).toBeDefined()
      const documents = index.allDocuments()
      expect(documents.length).toBeGreaterThan(2)
      let symbols = 0
      for (const document of documents) {
        const computed = await answers.outline(document)
        symbols += computed.length
        expect(cache?.get(document.relativePath), document.relativePath).toEqual(computed)
      }
      expect(symbols).toBeGreaterThan(5)
      expect(cache?.get('src/not-indexed.ts')).toBeUndefined()

      // A provider given the cache answers outlines from it.
      const first = documents[0]
      if (first === undefined) throw new Error('no document')
      const read_: string[] = []
      const counted = { get: (path: string) => (read_.push(path), cache?.get(path)) }
      const withCache = createIndexProvider({ index, root: fixture.root, outlines: counted })
      const asked = await withCache.query(
        {
          operation: 'documentSymbols',
          root: fixture.root,
          path: nodePath.join(fixture.root, first.relativePath),
          languageId: 'typescript',
        },
        new AbortController().signal,
      )
      expect(asked.kind === 'documentSymbols' && asked.symbols).toEqual(await answers.outline(first))
      expect(read_).toEqual([first.relativePath])

      // Another index's fingerprint: not used. The cache already there is not replaced.
      expect(await openOutlineCache(entry, `${read.fingerprint}-other`)).toBeUndefined()
      const bytes = await readFile(file)
      expect(await writeOutlineCache(entry, answers, 'another index')).toBe(false)
      expect((await readFile(file)).equals(bytes)).toBe(true)

      // Written by other code (the recipe its header records differs), or damaged, or missing: not used.
      const headerAt = bytes.indexOf('{')
      const otherRecipe = Buffer.from(bytes)
      otherRecipe.write('z', bytes.indexOf('"recipe":"', headerAt) + '"recipe":"'.length)
      const holding = async (name: string, content: Buffer) => {
        const other = nodePath.join(entry, name)
        await mkdir(other)
        await writeFile(await outlinesFile(other), content)
        return other
      }
      expect(await openOutlineCache(await holding('foreign', otherRecipe), read.fingerprint)).toBeUndefined()
      expect(await openOutlineCache(await holding('damaged', bytes.subarray(0, headerAt + 10)), read.fingerprint)).toBeUndefined()
      expect(await openOutlineCache(nodePath.join(entry, 'missing'), read.fingerprint)).toBeUndefined()
    } finally {
      await built.dispose()
      await rm(entry, { recursive: true, force: true })
      await fixture.dispose()
    }
  },
)
