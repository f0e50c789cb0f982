// gopls's project model (loadAllProjects: 'goPackages'): which files are opened so that every Go package under the
// root — every module's — is a workspace package of gopls's views before a workspace-wide query.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'

import { goPackageFiles } from '../src/languages/gopls/packages.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-go-packages-')))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(path: string, text: string): string {
  const file = nodePath.join(root, path)
  mkdirSync(nodePath.dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

test('one file per package: a folder’s first file, and a test file only for a package of its own (x_test)', async () => {
  const files = [
    write('a.go', '// Package x.\npackage x\n'),
    write('a_test.go', 'package x\n'),
    write('b_test.go', '/* package y\n*/\npackage x_test\n'),
    write('c_test.go', 'package x_test\n'),
    write('mod2/go.mod', 'module example.com/mod2\n'),
    write('mod2/lib/lib.go', 'package lib\n'),
    write('onlytests/t_test.go', 'package t\n'),
    write('testdata/d.go', 'package d\n'),
    write('vendor/example.com/v/v.go', 'package v\n'),
    write('_skip/f.go', 'package f\n'),
  ].filter((file) => file.endsWith('.go'))
  const picked = (await goPackageFiles(root, files)).map((file) => nodePath.relative(root, file))
  expect(picked).toEqual(['a.go', 'b_test.go', 'mod2/lib/lib.go', 'onlytests/t_test.go'])
})
