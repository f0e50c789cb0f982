import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { discoverRoot } from '../src/cli/root-discovery.js'
import { runBuiltCli } from './support/mcp-process.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// Started in a subfolder, a command works on the enclosing repository or project (issue 32: it silently narrowed the
// workspace to the subfolder, and the references outside it were "outside the workspace").

let root: string
beforeAll(async () => {
  root = realpathSync(await copyFixture())
  // A second folder of the project, outside src/: references from there are found only from the project root.
  writeFileSync(
    nodePath.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src', 'lib'] }),
  )
  mkdirSync(nodePath.join(root, 'lib'))
  writeFileSync(
    nodePath.join(root, 'lib', 'report.ts'),
    "import { totalArea } from '../src/shapes.js'\nexport const none = totalArea([], 1)\n",
  )
})
afterAll(async () => {
  await removeWorkspace(root)
})

const references = async (cwd: string, path: string, extra: ReadonlyArray<string> = []) => {
  const run = await runBuiltCli(['navigate', path, '--symbol', 'totalArea', '--kind', 'references', '--json', ...extra], {
    cwd,
    env: { ...process.env, NO_COLOR: '' },
  })
  expect(run.code, run.stderr).toBe(0)
  const result = JSON.parse(run.stdout).structured as { totalFound: number; files: Array<{ path: string }> }
  return { ...result, stderr: run.stderr }
}

describe('a command started in a subfolder', () => {
  it('works on the project around it: the same references as from the root, a PATH taken from the current folder', async () => {
    const fromRoot = await references(root, 'src/shapes.ts')
    expect(fromRoot.files.map((f) => f.path)).toContain('lib/report.ts')
    const fromSrc = await references(nodePath.join(root, 'src'), 'shapes.ts')
    expect(fromSrc.totalFound).toBe(fromRoot.totalFound)
    expect(fromSrc.files.map((f) => f.path).sort()).toEqual(fromRoot.files.map((f) => f.path).sort())
  })

  it('says which folder it chose and why, unless --quiet or --json', async () => {
    const run = await runBuiltCli(['symbols', 'shapes.ts'], { cwd: nodePath.join(root, 'src'), env: { ...process.env, NO_COLOR: '' } })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(`workspace: ${root} (the nearest folder above with tsconfig.json; --root . for this folder only)`)
    const quiet = await references(nodePath.join(root, 'src'), 'shapes.ts')
    expect(quiet.stderr).not.toContain('workspace:')
  })

  it('--root . keeps the current folder: the references outside it are not searched', async () => {
    const narrowed = await references(nodePath.join(root, 'src'), 'shapes.ts', ['--root', '.'])
    expect(narrowed.files.map((f) => f.path)).not.toContain('lib/report.ts')
  })
})

describe('discoverRoot', () => {
  let base: string
  beforeAll(() => {
    base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-roots-')))
  })
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  it('prefers the version-control root over a nearer project file, and falls back to the current folder', () => {
    const repo = nodePath.join(base, 'repo')
    mkdirSync(nodePath.join(repo, '.git'), { recursive: true })
    mkdirSync(nodePath.join(repo, 'packages', 'a', 'src'), { recursive: true })
    writeFileSync(nodePath.join(repo, 'packages', 'a', 'package.json'), '{}')
    expect(discoverRoot(nodePath.join(repo, 'packages', 'a', 'src'), ['package.json'], '/nonexistent-home')).toEqual({
      root: repo,
      why: 'vcs',
      marker: '.git',
    })
    const loose = nodePath.join(base, 'loose', 'deeper')
    mkdirSync(loose, { recursive: true })
    expect(discoverRoot(loose, ['package.json'], '/nonexistent-home')).toEqual({ root: loose, why: 'cwd' })
  })

  it('never widens to the home folder from below it (a dotfiles repository there is not the project)', () => {
    const home = nodePath.join(base, 'home')
    mkdirSync(nodePath.join(home, '.git'), { recursive: true })
    const project = nodePath.join(home, 'code', 'app')
    mkdirSync(nodePath.join(project, 'src'), { recursive: true })
    writeFileSync(nodePath.join(project, 'go.mod'), 'module app\n')
    expect(discoverRoot(nodePath.join(project, 'src'), ['go.mod'], home)).toEqual({ root: project, why: 'project', marker: 'go.mod' })
    // Started in the home folder itself, its repository is the workspace.
    expect(discoverRoot(home, ['go.mod'], home)).toEqual({ root: home, why: 'vcs', marker: '.git' })
  })
})
