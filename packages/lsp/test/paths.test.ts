import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { canonicalPath, LspError, maxPathLength, resolveInRoot } from '../src/index.js'

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
