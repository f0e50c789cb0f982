import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, describe, expect, test } from 'vitest'

import { builtinProfiles, clangdMajor, clangdUnavailable, findClangd, findClangdCandidates } from '../src/policy/builtin-profiles.js'

/**
 * The clangd lookup on fake executables: they only record that they ran (and print a version when asked),
 * so the tests can tell which one was chosen and whether choosing it ran anything.
 */

const folders: string[] = []
const originalPath = process.env['PATH']
afterEach(() => {
  process.env['PATH'] = originalPath
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function tempFolder(): string {
  const folder = mkdtempSync(nodePath.join(tmpdir(), 'clangd-lookup-'))
  folders.push(folder)
  return folder
}

/** A fake clangd that appends its name to `ran.log` in `logDir` and answers --version with `version`. */
function fakeClangd(dir: string, name: string, logDir: string, version = '99.0.0', mode = 0o755): string {
  mkdirSync(dir, { recursive: true })
  const path = nodePath.join(dir, name)
  writeFileSync(path, `#!/bin/sh\necho ${name} >> '${nodePath.join(logDir, 'ran.log')}'\necho 'Debian clangd version ${version}'\n`)
  chmodSync(path, mode)
  return path
}

const ran = (logDir: string) => existsSync(nodePath.join(logDir, 'ran.log'))

describe('clangd lookup on PATH', () => {
  test('clangd, clangd-14 and clangd-19 in one folder: clangd-19 first, then 14, then plain clangd; nothing runs', async () => {
    const dir = tempFolder()
    const plain = fakeClangd(dir, 'clangd', dir)
    const v14 = fakeClangd(dir, 'clangd-14', dir)
    const v19 = fakeClangd(dir, 'clangd-19', dir)
    expect(findClangd(dir)).toBe(v19)
    expect(findClangdCandidates(dir)).toEqual([v19, v14, plain])
    expect(await clangdMajor(v19)).toBe(19)
    expect(ran(dir)).toBe(false)
  })

  test('the newest version wins across folders, whatever their PATH order; equal versions keep PATH order', () => {
    const root = tempFolder()
    const first = fakeClangd(nodePath.join(root, 'a'), 'clangd-14', root)
    const plain = fakeClangd(nodePath.join(root, 'a'), 'clangd', root)
    const newest = fakeClangd(nodePath.join(root, 'b'), 'clangd-19', root)
    const again = fakeClangd(nodePath.join(root, 'c'), 'clangd-14', root)
    const path = ['a', 'b', 'c'].map((d) => nodePath.join(root, d)).join(nodePath.delimiter)
    expect(findClangdCandidates(path)).toEqual([newest, first, again, plain])
    expect(ran(root)).toBe(false)
  })

  test('ignored: non-executable files, folders named like clangd, other names, relative and missing PATH entries', () => {
    const root = tempFolder()
    const dir = nodePath.join(root, 'bin')
    fakeClangd(dir, 'clangd-20', root, '20.0.0', 0o644)
    mkdirSync(nodePath.join(dir, 'clangd-21'))
    fakeClangd(dir, 'clangd-tidy', root)
    fakeClangd(dir, 'clangd-19.bak', root)
    const v15 = fakeClangd(dir, 'clangd-15', root)
    // A relative entry ("bin", resolved against the working directory) is never searched.
    const relative = nodePath.relative(process.cwd(), dir)
    expect(findClangdCandidates([relative, nodePath.join(root, 'missing'), dir].join(nodePath.delimiter))).toEqual([v15])
    expect(findClangd(relative)).toBeUndefined()
    expect(findClangd('')).toBeUndefined()
  })

  test('the version of a plain clangd comes from its real path (Debian: /usr/lib/llvm-NN/bin/clangd) without running it', async () => {
    const root = tempFolder()
    const real = fakeClangd(nodePath.join(root, 'lib', 'llvm-17', 'bin'), 'clangd', root)
    mkdirSync(nodePath.join(root, 'bin'))
    symlinkSync(real, nodePath.join(root, 'bin', 'clangd'))
    expect(findClangd(nodePath.join(root, 'bin'))).toBe(nodePath.join(root, 'bin', 'clangd'))
    expect(await clangdMajor(nodePath.join(root, 'bin', 'clangd'))).toBe(17)
    expect(ran(root)).toBe(false)
  })

  test('otherwise a plain clangd is asked for its version', async () => {
    const dir = tempFolder()
    const plain = fakeClangd(dir, 'clangd', dir, '16.0.6')
    expect(await clangdMajor(plain)).toBe(16)
    expect(ran(dir)).toBe(true)
  })

  test('a plain clangd is asked once per process while the file is unchanged, again once it changes', async () => {
    const dir = tempFolder()
    const plain = fakeClangd(dir, 'clangd', dir, '15.0.1')
    const log = nodePath.join(dir, 'ran.log')
    const runs = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0).length
    expect(await Promise.all([clangdMajor(plain), clangdMajor(plain)])).toEqual([15, 15])
    expect(await clangdMajor(plain)).toBe(15)
    expect(runs()).toBe(1)
    // A new clangd at the same path (an upgrade): a different modification time, so it is asked again.
    fakeClangd(dir, 'clangd', dir, '18.1.3')
    utimesSync(plain, new Date(), new Date(Date.now() + 5_000))
    expect(await clangdMajor(plain)).toBe(18)
    expect(runs()).toBe(2)
  })
})

describe('the built-in clangd profile', () => {
  const clangdProfile = async () => (await builtinProfiles()).find((p) => p.id === 'clangd')

  test('uses the newest clangd-NN on PATH and its version’s operations, without running it', async () => {
    const dir = tempFolder()
    fakeClangd(dir, 'clangd', dir)
    fakeClangd(dir, 'clangd-14', dir)
    const v19 = fakeClangd(dir, 'clangd-19', dir)
    process.env['PATH'] = dir
    const profile = await clangdProfile()
    expect(profile?.command).toBe(v19)
    expect(profile?.unavailable).toBeUndefined()
    expect(profile?.operations).toEqual(expect.arrayContaining(['prepareTypeHierarchy', 'supertypes', 'subtypes', 'inlayHints']))
    expect(profile?.operations).not.toContain('outgoingCalls')
    expect(ran(dir)).toBe(false)
  })

  test('with no clangd on PATH it is unavailable and says what to install', async () => {
    process.env['PATH'] = tempFolder()
    const profile = await clangdProfile()
    expect(profile?.unavailable).toBe(clangdUnavailable)
    expect(profile?.unavailable).toMatch(/apt-get install -y clangd-19/)
  })
})
