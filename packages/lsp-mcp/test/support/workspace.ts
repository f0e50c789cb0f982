import { cp, mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

/** The fixture workspace: a small TypeScript project plus one Python module. */
export const fixtureRoot = fileURLToPath(new URL('../fixtures/workspace', import.meta.url))

/** Copies the fixture into a fresh temp folder (canonical path) so tests may change files. */
export async function copyFixture(): Promise<string> {
  const dir = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-mcp-')))
  await cp(fixtureRoot, dir, { recursive: true })
  return dir
}

/** Removes a copied workspace. */
export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
}

/** A 1-based position, as every tool speaks. */
export interface ModelPosition {
  readonly line: number
  readonly column: number
}

/**
 * Where `text` occurs in a workspace file, found by searching the file (never hand-counted): 1-based line
 * and 1-based UTF-16 column of its `occurrence`-th match (default the first), shifted by `offset` characters.
 */
export async function positionOf(
  root: string,
  path: string,
  text: string,
  options: { readonly occurrence?: number; readonly offset?: number } = {},
): Promise<ModelPosition> {
  const content = await readFile(nodePath.join(root, path), 'utf8')
  let index = -1
  for (let n = 0; n < (options.occurrence ?? 1); n++) {
    index = content.indexOf(text, index + 1)
    if (index < 0) throw new Error(`"${text}" occurs fewer than ${options.occurrence ?? 1} times in ${path}`)
  }
  const at = index + (options.offset ?? 0)
  const before = content.slice(0, at)
  const line = before.split('\n').length
  const column = at - (before.lastIndexOf('\n') + 1) + 1
  return { line, column }
}

/** The 1-based number of the first line containing `text`. */
export async function lineOf(root: string, path: string, text: string): Promise<number> {
  return (await positionOf(root, path, text)).line
}
