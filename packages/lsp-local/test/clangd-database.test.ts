import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { databaseCopyFor, databaseCopyWritten, databaseEnvironment } from '../src/languages/clangd/database.js'
import { positionOf } from './helpers.js'

// A compile_commands.json whose `directory` is relative (the JSON Compilation Database format: "All paths
// specified in the command or file fields must be either absolute or relative to this directory"; tools that
// take a relative one resolve it against the database's folder). clangd 19 keys such a database's entries by
// relative paths and parses every file with its fallback command. codeseam hands clangd a copy with the
// directory resolved, in its own cache; the user's file stays as it is, and a nested database still serves
// its own files.
const clangd = (await builtinProfiles()).find((p) => p.id === 'clangd')
const skip = clangd === undefined ? 'there is no built-in clangd profile' : clangd.unavailable

let cache: string
const previousCache = process.env['XDG_CACHE_HOME']
beforeAll(() => {
  cache = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-clangd-cache-')))
  process.env['XDG_CACHE_HOME'] = cache
})
afterAll(() => {
  if (previousCache === undefined) delete process.env['XDG_CACHE_HOME']
  else process.env['XDG_CACHE_HOME'] = previousCache
  rmSync(cache, { recursive: true, force: true })
})

/** Resolves when `file` holds `text`, checked now and on every change in its folder (a rename lands it). */
function whenFileHolds(file: string, text: string): Promise<void> {
  const holds = () => {
    try {
      return readFileSync(file, 'utf8').includes(text)
    } catch {
      return false
    }
  }
  return new Promise((resolve, reject) => {
    const watcher = watch(nodePath.dirname(file), () => {
      if (!holds()) return
      clearTimeout(timer)
      watcher.close()
      resolve()
    })
    const timer = setTimeout(() => {
      watcher.close()
      reject(new Error(`${file} never held ${text}`))
    }, 60_000)
    if (holds()) {
      clearTimeout(timer)
      watcher.close()
      resolve()
    }
  })
}

function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).sort()
}

/** A project whose root database names `"directory": "build"`, and a nested one (absolute directory) in `nested/`. */
function project(): { root: string; databases: Record<string, string> } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-c-reldir-')))
  for (const dir of ['build', 'src', 'include-dir', 'nested']) mkdirSync(nodePath.join(root, dir))
  writeFileSync(nodePath.join(root, 'include-dir', 'only.h'), '#pragma once\ninline int onlyFromIncludeDir() { return 2; }\n')
  writeFileSync(
    nodePath.join(root, 'src', 'main.cpp'),
    [
      '#include "only.h"',
      '#ifdef FROM_DATABASE',
      'int fromDatabase() { return onlyFromIncludeDir(); }',
      '#endif',
      'int useIt() { return fromDatabase(); }',
      '',
    ].join('\n'),
  )
  writeFileSync(
    nodePath.join(root, 'nested', 'lib.cpp'),
    ['#ifdef NESTED_ONLY', 'int nestedOnly() { return 3; }', '#endif', 'int useNested() { return nestedOnly(); }', ''].join('\n'),
  )
  const databases = {
    'compile_commands.json': `${JSON.stringify(
      [
        {
          directory: 'build',
          file: '../src/main.cpp',
          arguments: ['c++', '-std=c++20', '-DFROM_DATABASE=1', '-I../include-dir', '-c', '../src/main.cpp', '-o', 'main.o'],
        },
      ],
      null,
      2,
    )}\n`,
    'nested/compile_commands.json': `${JSON.stringify(
      [{ directory: nodePath.join(root, 'nested'), file: 'lib.cpp', command: 'c++ -std=c++20 -DNESTED_ONLY=1 -c lib.cpp' }],
      null,
      2,
    )}\n`,
  }
  for (const [file, text] of Object.entries(databases)) writeFileSync(nodePath.join(root, file), text)
  return { root, databases }
}

describe('clangd and a compile_commands.json with a relative directory', () => {
  for (const trust of ['trusted', 'untrusted'] as const) {
    test.skipIf(skip !== undefined)(
      `${trust}: the database's defines and include paths apply, the nested database serves its files, the user's files are untouched`,
      { timeout: 120_000 },
      async () => {
        const { root, databases } = project()
        const before = tree(root)
        const host = await createLocalHost()
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root, trust }])
          const diagnostics = await lsp.query({ operation: 'diagnostics', root, path: 'src/main.cpp' })
          expect(diagnostics.files.flatMap((f) => f.diagnostics.map((d) => d.message))).toEqual([])
          const definition = await lsp.query({
            operation: 'definition',
            root,
            path: 'src/main.cpp',
            position: positionOf(root, 'src/main.cpp', 'fromDatabase(); }'),
          })
          expect(definition.locations.map((l) => [l.path, l.range.start.line])).toEqual([[nodePath.join(root, 'src', 'main.cpp'), 2]])
          const included = await lsp.query({
            operation: 'definition',
            root,
            path: 'src/main.cpp',
            position: positionOf(root, 'src/main.cpp', 'onlyFromIncludeDir(); }'),
          })
          expect(included.locations.map((l) => l.path)).toEqual([nodePath.join(root, 'include-dir', 'only.h')])
          const hover = await lsp.query({
            operation: 'hover',
            root,
            path: 'src/main.cpp',
            position: positionOf(root, 'src/main.cpp', 'fromDatabase(); }'),
          })
          expect(hover.hover?.contents).toContain('int fromDatabase()')

          // The nested database (absolute directory, clangd's own per-file search) still serves nested/.
          const nested = await lsp.query({ operation: 'diagnostics', root, path: 'nested/lib.cpp' })
          expect(nested.files.flatMap((f) => f.diagnostics.map((d) => d.message))).toEqual([])
          const nestedDefinition = await lsp.query({
            operation: 'definition',
            root,
            path: 'nested/lib.cpp',
            position: positionOf(root, 'nested/lib.cpp', 'nestedOnly(); }'),
          })
          expect(nestedDefinition.locations.map((l) => [l.path, l.range.start.line])).toEqual([
            [nodePath.join(root, 'nested', 'lib.cpp'), 1],
          ])

          // A change to the user's database: the copy is written again (clangd re-reads it as it does a database it reads itself).
          const changed = JSON.parse(databases['compile_commands.json'] ?? '') as Array<{ arguments: string[] }>
          changed[0]?.arguments.splice(2, 0, '-DSECOND_DEFINE=1')
          databases['compile_commands.json'] = `${JSON.stringify(changed, null, 2)}\n`
          writeFileSync(nodePath.join(root, 'compile_commands.json'), databases['compile_commands.json'])
          const copy = databaseCopyFor(root)
          // Waits on the copy's folder (events, no polling interval) until the rewrite lands; a query takes the change in.
          const rewritten = whenFileHolds(copy, '-DSECOND_DEFINE=1')
          await lsp.query({ operation: 'diagnostics', root, path: 'src/main.cpp' })
          await databaseCopyWritten(root)
          await rewritten
          expect(copy.startsWith(nodePath.join(cache, 'codeseam') + nodePath.sep)).toBe(true)
          const copied = JSON.parse(readFileSync(copy, 'utf8')) as Array<{ directory: string; file: string; arguments?: string[] }>
          expect(copied).toContainEqual(
            expect.objectContaining({ directory: nodePath.join(root, 'build'), arguments: expect.arrayContaining(['-DSECOND_DEFINE=1']) }),
          )
        } finally {
          await lsp.dispose()
          await host.dispose()
        }
        // Byte for byte the user's databases, and nothing written in the workspace.
        for (const [file, text] of Object.entries(databases)) expect(readFileSync(nodePath.join(root, file), 'utf8')).toBe(text)
        expect(tree(root)).toEqual(before)
        rmSync(root, { recursive: true, force: true })
      },
    )
  }
})

describe('the copy keeps what clangd per-file search would pick', () => {
  test('the nearest database wins per file, compile_flags.txt folders are listed, a profile with its own --compile-commands-dir is left alone', async () => {
    const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-c-merge-')))
    try {
      for (const dir of ['src', 'nested', 'flags/deep']) mkdirSync(nodePath.join(root, dir), { recursive: true })
      for (const file of ['src/a.cpp', 'nested/lib.cpp', 'flags/f.cpp', 'flags/deep/g.h']) writeFileSync(nodePath.join(root, file), '')
      writeFileSync(
        nodePath.join(root, 'compile_commands.json'),
        JSON.stringify([
          { directory: '.', file: 'src/a.cpp', command: 'c++ -DROOT -c src/a.cpp' },
          { directory: 'src', file: '../nested/lib.cpp', command: 'c++ -DWRONG -c ../nested/lib.cpp' },
        ]),
      )
      writeFileSync(
        nodePath.join(root, 'nested', 'compile_commands.json'),
        JSON.stringify([{ directory: nodePath.join(root, 'nested'), file: 'lib.cpp', command: 'c++ -DNESTED -c lib.cpp' }]),
      )
      writeFileSync(nodePath.join(root, 'flags', 'compile_flags.txt'), '-DFLAGS\n-std=c++20\n')
      const extensions = new Set(['.cpp', '.h'])
      expect(await databaseEnvironment(root, ['--compile-commands-dir=/elsewhere'], extensions)).toEqual({})
      const env = await databaseEnvironment(root, [], extensions)
      expect(env['CLANGD_FLAGS']).toBe(`--compile-commands-dir="${nodePath.dirname(databaseCopyFor(root))}"`)
      const copy = JSON.parse(readFileSync(databaseCopyFor(root), 'utf8')) as Array<{
        directory: string
        file: string
        command?: string
        arguments?: string[]
      }>
      const byFile = (file: string) => copy.filter((e) => nodePath.resolve(e.directory, e.file) === nodePath.join(root, file))
      expect(byFile('src/a.cpp').map((e) => [e.directory, e.command])).toEqual([[root, 'c++ -DROOT -c src/a.cpp']])
      expect(byFile('nested/lib.cpp').map((e) => e.command)).toEqual(['c++ -DNESTED -c lib.cpp'])
      expect(byFile('flags/f.cpp').map((e) => e.arguments)).toEqual([
        ['clang', '-DFLAGS', '-std=c++20', nodePath.join(root, 'flags/f.cpp')],
      ])
      expect(byFile('flags/deep/g.h')).toHaveLength(1)
      // Every directory absolute: clangd's own search reads them; no copy.
      writeFileSync(
        nodePath.join(root, 'compile_commands.json'),
        JSON.stringify([{ directory: root, file: 'src/a.cpp', command: 'c++ -c src/a.cpp' }]),
      )
      expect(await databaseEnvironment(root, [], extensions)).toEqual({})
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
