import { readFileSync, realpathSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, test } from 'vitest'

import { ownTsserverPath } from '../src/profile/executables.js'
import { ownPackageRequire } from '../src/profile/own-packages.js'

/**
 * The language servers resolve from @codeseam/lsp-local's own folder: its package.json found by self-reference,
 * so the same lookup works from this package's dist and from a dependent's bundle (the `codeseam` CLI).
 */

const packageRoot = realpathSync(nodePath.resolve(fileURLToPath(import.meta.url), '..', '..'))
const dependencies = Object.keys(
  (JSON.parse(readFileSync(nodePath.join(packageRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
)

/** Where this package's node_modules entry for `name` points (pnpm links each dependency there). */
const ownDependencyDir = (name: string) => realpathSync(nodePath.join(packageRoot, 'node_modules', name))

describe('ownPackageRequire', () => {
  test('resolves our own package.json, so it requires from this package folder', () => {
    expect(realpathSync(ownPackageRequire().resolve('@codeseam/lsp-local/package.json'))).toBe(nodePath.join(packageRoot, 'package.json'))
  })

  test.each(['typescript', 'typescript-native', 'typescript-language-server', 'pyright'])(
    '%s resolves to the folder of our own dependency',
    (name) => {
      expect(dependencies).toContain(name)
      const dir = nodePath.dirname(realpathSync(ownPackageRequire().resolve(`${name}/package.json`)))
      expect(dir).toBe(ownDependencyDir(name))
    },
  )

  test("codeseam's tsserver is our own typescript's", () => {
    const path = ownTsserverPath()
    expect(path).toBeDefined()
    expect(realpathSync(path ?? '')).toBe(nodePath.join(ownDependencyDir('typescript'), 'lib', 'tsserver.js'))
  })
})
