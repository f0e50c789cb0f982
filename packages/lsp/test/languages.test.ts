import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

import {
  builtInFactsFor,
  builtInLanguageFacts,
  builtInLanguages,
  declarationReadingOf,
  languageOfPath,
  moduleOf,
  type LspLanguage,
} from '../src/index.js'
import { conformanceFixtures } from '../src/testing/index.js'

/** The seam's language folders (RFC 0027): one folder per language, one list, everything else derived. */

const languagesDir = fileURLToPath(new URL('../src/languages/', import.meta.url))

describe('the language list', () => {
  it('lists every folder under src/languages once, each by its id', async () => {
    const folders = (await readdir(languagesDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    expect(builtInLanguages.map((language) => language.id).sort()).toEqual(folders.sort())
    for (const language of builtInLanguages) expect(language.languageIds[0], language.id).toBe(language.id)
  })

  it('claims each language id, extension and file name for one language only', () => {
    for (const key of ['languageIds', 'extensions', 'fileNames'] as const) {
      const all = builtInLanguages.flatMap((language) => language[key] ?? [])
      expect(new Set(all).size, key).toBe(all.length)
    }
    for (const extension of builtInLanguages.flatMap((language) => language.extensions)) expect(extension).toMatch(/^\.[a-z0-9]+$/)
  })

  it('derives the identifier facts of every language with names, and only those', () => {
    const named = builtInLanguages.filter((language) => language.names !== undefined)
    expect(builtInLanguageFacts.map((facts) => facts.label)).toEqual(named.map((language) => language.label))
    const rust = builtInFactsFor('rust')
    expect(rust.comments).toEqual({ line: ['//'], block: [['/*', '*/']] })
    expect(rust.unresolvedText).toBeDefined()
    expect(() => builtInFactsFor('yaml')).toThrow(/no language facts/)
  })

  it('derives the conformance fixtures from the folders that hold one, keyed by language id', () => {
    const withFixture = builtInLanguages.filter((language) => language.conformance !== undefined).map((language) => language.id)
    expect(Object.keys(conformanceFixtures)).toEqual(withFixture)
    expect(conformanceFixtures['shellscript']?.dir).toMatch(/fixtures[/\\]conformance-bash$/)
  })
})

describe('derived lookups', () => {
  it('finds a path’s language by file name, then extension', () => {
    expect(languageOfPath('/r/src/app.MTS')?.id).toBe('typescript')
    expect(languageOfPath('/r/Dockerfile')?.id).toBe('dockerfile')
    expect(languageOfPath('/r/stubs/x.pyi')?.id).toBe('python')
    expect(languageOfPath('/r/README')).toBeUndefined()
  })

  it('reads declarations by the language’s facts, the C family’s for a language that states none', () => {
    expect(declarationReadingOf('/r/x.py')).toMatchObject({ body: 'indentation', comments: { line: ['#'] }, decorators: ['@'] })
    expect(declarationReadingOf('/r/x.rs')).toMatchObject({ body: 'braces', decorators: ['@', '#['] })
    // Shell states no declaration syntax: symbol edits keep reading it as they always did.
    expect(declarationReadingOf('/r/x.sh')).toEqual(declarationReadingOf('/r/x.unknown'))
    expect(declarationReadingOf('/r/x.sh').comments.line).toEqual(['//'])
  })

  it('takes a throwaway language folder the same way', () => {
    const hashlang: LspLanguage = {
      id: 'hashlang',
      languageIds: ['hashlang'],
      label: 'Hashlang',
      extensions: ['.hashlang'],
      comments: { line: ['#'], block: [] },
      declarations: { decorators: [], modifiers: /^\s*$/, body: 'indentation' },
    }
    const languages = [...builtInLanguages, hashlang]
    expect(languageOfPath('/r/a.hashlang', languages)).toBe(hashlang)
    expect(declarationReadingOf('/r/a.hashlang', languages)).toMatchObject({ body: 'indentation', comments: { line: ['#'] } })
  })

  it('groups files by the manifests the language folders name (impact)', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'codeseam-manifests-')))
    try {
      const manifests = builtInLanguages.flatMap((language) => language.manifests ?? [])
      expect(manifests).toEqual(expect.arrayContaining(['package.json', 'go.mod', 'Cargo.toml', 'pyproject.toml']))
      for (const [index, manifest] of manifests.entries()) {
        await mkdir(join(root, 'top', `m${index}`, 'src'), { recursive: true })
        await writeFile(join(root, 'top', `m${index}`, manifest), '')
        expect(moduleOf(root, join(root, 'top', `m${index}`, 'src', 'a.x')), manifest).toBe(`top/m${index}`)
      }
      await mkdir(join(root, 'top', 'plain', 'src'), { recursive: true })
      await writeFile(join(root, 'top', 'plain', 'Makefile'), '')
      expect(moduleOf(root, join(root, 'top', 'plain', 'src', 'a.x'))).toBe('top') // no manifest: the top-level folder
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
