import { cp, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { TextLines } from '../coordinates.js'
import { builtInLanguages } from '../languages/index.js'
import type { LspPosition } from '../vocabulary.js'
import type { FixtureSite } from './fixture-record.js'

/**
 * A fixture folder the kit ships (`fixtures/<name>` in the package). Resolved here, beside the TypeScript one,
 * so source and bundle (`dist/testing/index.js`) find it at the same depth.
 */
export function kitFixtureDir(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url))
}

/** The TypeScript fixture workspace the kit ships (`fixtures/conformance` in the package). */
export const conformanceFixtureDir = kitFixtureDir('conformance')

/**
 * Source files whose words {@link FixtureWorkspace.occurrences} searches: the files of every language a
 * reference or a rename can land in — one with identifier rules, or whose fixture checks references —
 * not configuration data a fixture ships beside its sources (`package.json`, `Cargo.toml`).
 */
const sourceFile = ((): RegExp => {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const searched = builtInLanguages.filter((language) => language.names !== undefined || language.conformance?.references !== undefined)
  const names = searched.flatMap((language) => (language.fileNames ?? []).map((name) => `^${escape(name)}`))
  const extensions = searched.flatMap((language) => language.extensions.map(escape))
  return new RegExp(`(?:${[...extensions, ...names].join('|')})$`)
})()

/** Folders a fixture copy may gain from its servers (build output, caches) that hold no fixture source. */
const generatedFolder = new Set(['node_modules', 'target', '__pycache__'])

/** A private copy of a fixture workspace on disk, with helpers that find positions by text. */
export interface FixtureWorkspace {
  /** Canonical (realpath) root of the copy. */
  readonly root: string
  /** Absolute path of a fixture file given relative to the root. */
  path(relative: string): string
  /** Current text of a fixture file. */
  text(relative: string): Promise<string>
  /**
   * Position of the `occurrence`-th (0-based) match of `needle` in a file, moved `offset` UTF-16 units
   * past the match start (e.g. `needle.length` lands just after it).
   */
  locate(relative: string, needle: string, options?: { occurrence?: number; offset?: number }): Promise<LspPosition>
  /** Zero-based line of the first line containing `needle`. */
  lineOf(relative: string, needle: string): Promise<number>
  /** Position of a site, found by its text (which must occur exactly once in its file). */
  find(site: FixtureSite): Promise<LspPosition>
  /** Every whole-word occurrence of `word` across the fixture's source files. */
  occurrences(word: string): Promise<ReadonlyArray<{ readonly path: string; readonly position: LspPosition }>>
  /** Deletes the copy. */
  dispose(): Promise<void>
}

/** Copies a fixture folder into a fresh temporary directory. */
export async function copyFixture(source: string = conformanceFixtureDir): Promise<FixtureWorkspace> {
  const root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-fixture-')))
  await cp(source, root, { recursive: true })
  const path = (relative: string) => nodePath.join(root, relative)
  const text = (relative: string) => readFile(path(relative), 'utf8')
  const locate = async (relative: string, needle: string, options: { occurrence?: number; offset?: number } = {}) => {
    const content = await text(relative)
    let index = -1
    for (let n = 0; n <= (options.occurrence ?? 0); n++) {
      index = content.indexOf(needle, index + 1)
      if (index < 0) throw new Error(`fixture ${relative} has no occurrence #${n} of ${JSON.stringify(needle)}`)
    }
    return new TextLines(content).positionAt(index + (options.offset ?? 0))
  }
  const listSources = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { withFileTypes: true })
    const files = await Promise.all(
      entries.map(async (entry) => {
        const full = nodePath.join(dir, entry.name)
        if (entry.isDirectory()) return generatedFolder.has(entry.name) || entry.name.startsWith('.') ? [] : listSources(full)
        return sourceFile.test(entry.name) ? [full] : []
      }),
    )
    return files.flat()
  }
  return {
    root,
    path,
    text,
    locate,
    async lineOf(relative, needle) {
      return (await locate(relative, needle)).line
    },
    async find(site) {
      const content = await text(site.file)
      const index = content.indexOf(site.text)
      if (index < 0) throw new Error(`fixture ${site.file} has no ${JSON.stringify(site.text)}`)
      if (content.indexOf(site.text, index + 1) >= 0) {
        throw new Error(`fixture ${site.file} has ${JSON.stringify(site.text)} more than once: make the text unique`)
      }
      const within = site.at === undefined ? 0 : site.text.indexOf(site.at)
      if (within < 0) throw new Error(`${JSON.stringify(site.at)} is not part of ${JSON.stringify(site.text)} (${site.file})`)
      return new TextLines(content).positionAt(index + within)
    },
    async occurrences(word) {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}_$])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_$])`, 'gu')
      const found: { path: string; position: LspPosition }[] = []
      for (const file of await listSources(root)) {
        const content = await readFile(file, 'utf8')
        const lines = new TextLines(content)
        for (const match of content.matchAll(pattern)) found.push({ path: file, position: lines.positionAt(match.index) })
      }
      return found
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  }
}
