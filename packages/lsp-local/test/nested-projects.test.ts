import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, describe, expect, test } from 'vitest'

import { nestedProjects, nestedSettings } from '../src/workspace/nested-projects.js'
import { builtinProfiles } from '../src/policy/builtin-profiles.js'
import { inScope, pyrightScope } from '../src/languages/pyright/projects.js'

const removals: Array<() => void> = []
afterEach(() => {
  for (const remove of removals.splice(0)) remove()
})

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-nested-')))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  removals.push(() => rmSync(root, { recursive: true, force: true }))
  return root
}

const pyright = async () => {
  const profile = (await builtinProfiles()).find((p) => p.id === 'pyright')
  if (profile === undefined) throw new Error('no pyright profile')
  return profile
}

describe("which files pyright's own configuration puts in its program", () => {
  test('[tool.pyright] include/exclude in pyproject.toml, evaluated as pyright specs', () => {
    const root = tree({
      'pyproject.toml':
        '[project]\nname = "x"\n\n[tool.pyright]\ninclude = ["src", "tests/type_check"]\nexclude = ["**/generated", "src/*_old.py"]\n',
    })
    const scope = pyrightScope(root)
    const at = (path: string) => inScope(scope, nodePath.join(root, path))
    expect(at('src/pkg/app.py')).toBe(true)
    expect(at('tests/type_check/check.py')).toBe(true)
    expect(at('tests/test_app.py')).toBe(false)
    expect(at('examples/demo/app.py')).toBe(false)
    expect(at('src/pkg/generated/schema.py')).toBe(false)
    expect(at('src/legacy_old.py')).toBe(false)
    // A sibling whose name starts with an included one is not included.
    expect(at('srcx/app.py')).toBe(false)
  })

  test('no configuration: the whole folder, minus the default excludes (hidden folders, caches, node_modules)', () => {
    const root = tree({ 'setup.py': 'from setuptools import setup\n' })
    const scope = pyrightScope(root)
    const at = (path: string) => inScope(scope, nodePath.join(root, path))
    expect(at('pkg/mod.py')).toBe(true)
    expect(at('.venv/lib/site.py')).toBe(false)
    expect(at('pkg/__pycache__/mod.py')).toBe(false)
    expect(at('web/node_modules/x/y.py')).toBe(false)
    // `**/.*` excludes hidden path components only, not every file with a dot in its name.
    expect(at('pkg/module.name.py')).toBe(true)
  })

  test('pyrightconfig.json wins over pyproject.toml', () => {
    const root = tree({
      'pyproject.toml': '[tool.pyright]\ninclude = ["src"]\n',
      'pyrightconfig.json': JSON.stringify({ include: ['lib'] }),
    })
    const scope = pyrightScope(root)
    expect(inScope(scope, nodePath.join(root, 'lib/a.py'))).toBe(true)
    expect(inScope(scope, nodePath.join(root, 'src/a.py'))).toBe(false)
  })
})

describe('nested Python projects under one server', () => {
  test('a folder with its own pyright configuration is a workspace folder; a plain marker folder adds import roots', async () => {
    const root = tree({
      'pyproject.toml': '[tool.pyright]\ninclude = ["src"]\n',
      'examples/shop/pyproject.toml': '[project]\nname = "shop"\ndependencies = ["flask"]\n',
      'examples/shop/src/shop/__init__.py': '',
      'examples/blog/setup.py': 'from setuptools import setup\n',
      'plugins/strict/pyproject.toml': '[tool.pyright]\ntypeCheckingMode = "strict"\n',
      'tools/lint/pyrightconfig.json': '{}',
    })
    const profile = await pyright()
    const nested = await nestedProjects(root, profile)
    const rel = (paths: ReadonlyArray<string>) => paths.map((p) => nodePath.relative(root, p))
    expect(rel(nested.folders)).toEqual(['plugins/strict', 'tools/lint'])
    expect(rel(nested.plain)).toEqual(['examples/blog', 'examples/shop'])
    expect(rel(nested.searchPaths)).toEqual(['examples/blog', 'examples/shop', 'examples/shop/src'])
    const base = { python: { analysis: { diagnosticMode: 'openFilesOnly', extraPaths: ['/elsewhere/site-packages'] } } }
    const { settings, unscoped } = nestedSettings(root, profile, base, nested)
    const extraPaths = (value: unknown) => (value as { python: { analysis: { extraPaths: string[] } } }).python.analysis.extraPaths
    // Settings already there are kept first.
    expect(extraPaths(settings)).toEqual(['/elsewhere/site-packages', ...nested.searchPaths])
    expect((settings as typeof base).python.analysis.diagnosticMode).toBe('openFilesOnly')
    // The default workspace (no scope) also gets the root and the configured folders.
    expect(rel(extraPaths(unscoped).slice(1 + nested.searchPaths.length))).toEqual(['', 'plugins/strict', 'tools/lint'])
  })

  test('no nested folder with its own configuration: one workspace folder, no separate default-workspace answer', async () => {
    const root = tree({ 'pyproject.toml': '[project]\nname = "x"\n', 'examples/a/setup.cfg': '[metadata]\nname = a\n' })
    const profile = await pyright()
    const nested = await nestedProjects(root, profile)
    expect(nested.folders).toEqual([])
    expect(nestedSettings(root, profile, {}, nested).unscoped).toBeUndefined()
  })
})
