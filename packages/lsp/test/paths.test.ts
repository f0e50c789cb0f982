import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'

import { canonicalPath, isWithin, LspError, maxPathLength, resolveInRoot } from '../src/index.js'

const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-paths-')))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('paths', () => {
  it('refuses paths longer than PATH_MAX before any work', () => {
    const long = 'a/'.repeat(maxPathLength)
    try {
      resolveInRoot('/work/project', long)
      throw new Error('expected a refusal')
    } catch (error) {
      expect(error).toBeInstanceOf(LspError)
      expect((error as LspError).code).toBe('INVALID_ARGUMENT')
    }
    expect(resolveInRoot('/work/project', 'a/'.repeat(100) + 'b.ts')).toBe(`/work/project/${'a/'.repeat(100)}b.ts`)
  })

  it('canonicalPath follows symlinks, also for files that do not exist yet', () => {
    const root = nodePath.join(scratch, 'root')
    const outside = nodePath.join(scratch, 'outside')
    mkdirSync(root)
    mkdirSync(outside)
    symlinkSync(outside, nodePath.join(root, 'link'))
    expect(canonicalPath(nodePath.join(root, 'link', 'new', 'file.ts'))).toBe(nodePath.join(outside, 'new', 'file.ts'))
    expect(canonicalPath(nodePath.join(root, 'plain.ts'))).toBe(nodePath.join(root, 'plain.ts'))
  })
})

describe('isWithin', () => {
  /** The definition: after resolving dot segments, the root's segments are a prefix of the path's. */
  const segments = (path: string) =>
    nodePath.posix
      .resolve(path)
      .split('/')
      .filter((s) => s !== '')
  const reference = (root: string, path: string) => {
    const [r, p] = [segments(root), segments(path)]
    return r.length <= p.length && r.every((segment, i) => p[i] === segment)
  }
  const absolute = fc
    .array(fc.constantFrom('a', 'b', 'ab', '..', '.', '', '..a', 'a..', '.a'), { maxLength: 6 })
    .map((parts) => `/${parts.join('/')}`)

  it('agrees with the segment-prefix definition on absolute paths', () => {
    fc.assert(
      fc.property(absolute, absolute, (root, path) => isWithin(root, path) === reference(root, path)),
      { numRuns: 5_000 },
    )
  })

  it('handles the cases that prefix tests get wrong', () => {
    expect(isWithin('/work/app', '/work/app')).toBe(true)
    expect(isWithin('/work/app/', '/work/app')).toBe(true)
    expect(isWithin('/work/app', '/work/app/src/x.ts')).toBe(true)
    expect(isWithin('/work/app', '/work/application/x.ts')).toBe(false)
    expect(isWithin('/work/app', '/work/app/../other/x.ts')).toBe(false)
    expect(isWithin('/work/app', '/work/app/..config/x.ts')).toBe(true)
    expect(isWithin('/', '/etc/passwd')).toBe(true)
  })
})
