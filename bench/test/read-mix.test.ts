import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

import { generatedReadMix, hotReferencesQuery, repositoryMixFiles, repositoryReadMix, type ReadQuery } from '../src/read-mix.js'
import { writeWorkspace } from '../src/workspace-generator.js'

/*
 * `pnpm bench` is run by hand, so a refactor that moves the text its queries are found by would break it
 * unseen (it did once: a call it looked for left target.ts). These build every query the bench asks, against
 * this repository's files and a small generated workspace, without starting a server.
 */

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url))

/** Each query names an identifier at its position, and a definition target that exists. */
function checkQueries(queries: ReadonlyArray<ReadQuery>, files: ReadonlyMap<string, string>, exists: (path: string) => boolean): void {
  expect(queries.length).toBeGreaterThan(0)
  for (const query of queries) {
    const line = (files.get(query.path) ?? '').split('\n')[query.position.line] ?? ''
    expect(line.slice(query.position.character), query.label).toMatch(/^[A-Za-z_$]/)
    if (query.expect.file !== undefined) expect(exists(query.expect.file), `${query.label}: ${query.expect.file}`).toBe(true)
  }
}

describe('the bench finds every query it asks', () => {
  it('in this repository (the "codeseam repo" read mix)', async () => {
    const files = new Map<string, string>()
    for (const file of repositoryMixFiles) files.set(file, await readFile(nodePath.join(repositoryRoot, file), 'utf8'))
    checkQueries(repositoryReadMix(files), files, (path) => existsSync(nodePath.join(repositoryRoot, path)))
  })

  it('in a generated workspace (read mix and hot references)', async () => {
    const scratch = await mkdtemp(nodePath.join(tmpdir(), 'bench-read-mix-'))
    try {
      const workspace = await writeWorkspace(scratch, 'ts-10', 10)
      checkQueries([...generatedReadMix(workspace), hotReferencesQuery(workspace)], workspace.files, (path) => workspace.files.has(path))
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  })
})
