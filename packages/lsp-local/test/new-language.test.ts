import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, expect, test } from 'vitest'

/*
 * Issue 47: adding a language server is one folder. In a temporary copy of the repository this adds a record for
 * vim-language-server (a real npm-shipped server of a language codeseam does not build in), Vim script's folder in
 * the seam and its conformance fixture (test/new-language/) — touching nothing else — regenerates the two lists the
 * folders make, builds, and checks that `codeseam install`, `codeseam doctor`, the generated docs tables and the
 * conformance kit all pick the language up. It installs vim-language-server from the npm registry into a cache
 * folder of its own.
 */

const here = nodePath.dirname(fileURLToPath(import.meta.url))
const repo = nodePath.resolve(here, '..', '..', '..')
const templates = nodePath.join(here, 'new-language')
const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-new-language-')))
const copy = nodePath.join(scratch, 'repo')
const cache = nodePath.join(scratch, 'cache')
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs a command in the copy; its output, or a failure naming the command and what it printed. */
function run(command: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): string {
  const result = spawnSync(command, args, {
    cwd: copy,
    env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const output = `${result.stdout}${result.stderr}`
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output.slice(-4000)}`)
  return output
}

/** The repository's sources (tracked and untracked, not ignored) copied; dependencies linked, never written. */
function copyRepository(): void {
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8' })
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  for (const file of listed.stdout.split('\0').filter((f) => f !== '' && existsSync(nodePath.join(repo, f)))) {
    mkdirSync(nodePath.dirname(nodePath.join(copy, file)), { recursive: true })
    cpSync(nodePath.join(repo, file), nodePath.join(copy, file))
  }
  // Third-party packages are the repository's own, read only. Each workspace package's node_modules holds links (to
  // the root's store and to sibling packages, relative), copied as links so siblings resolve inside the copy.
  // The root's store is linked; its other entries (links into the store, bin shims) copied as links, since pnpm and
  // vite keep state of their own beside them.
  mkdirSync(nodePath.join(copy, 'node_modules'))
  for (const entry of readdirSync(nodePath.join(repo, 'node_modules'))) {
    if (entry === '.vite' || entry === '.vite-temp' || entry.startsWith('.pnpm-')) continue
    if (entry === '.pnpm') symlinkSync(nodePath.join(repo, 'node_modules', entry), nodePath.join(copy, 'node_modules', entry))
    else
      cpSync(nodePath.join(repo, 'node_modules', entry), nodePath.join(copy, 'node_modules', entry), {
        recursive: true,
        verbatimSymlinks: true,
      })
  }
  for (const dir of [
    'packages/lsp',
    'packages/lsp-index',
    'packages/lsp-local',
    'packages/lsp-mcp',
    'packages/lsp-vscode',
    'packages/tool-lsp',
    'packages/tool-lsp-mutate',
    'bench',
    'packaging',
  ]) {
    const modules = nodePath.join(repo, dir, 'node_modules')
    if (existsSync(modules)) cpSync(modules, nodePath.join(copy, dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  }
}

/** The one folder of the new server, the seam's language folder and its fixture: nothing else is touched. */
function addVimScript(): void {
  const record = nodePath.join(copy, 'packages/lsp-local/src/languages/vim')
  const language = nodePath.join(copy, 'packages/lsp/src/languages/vim')
  mkdirSync(record, { recursive: true })
  mkdirSync(language, { recursive: true })
  cpSync(nodePath.join(templates, 'record.ts.template'), nodePath.join(record, 'record.ts'))
  cpSync(nodePath.join(templates, 'language.ts.template'), nodePath.join(language, 'language.ts'))
  cpSync(nodePath.join(templates, 'fixture.ts.template'), nodePath.join(language, 'fixture.ts'))
  cpSync(nodePath.join(templates, 'fixture'), nodePath.join(copy, 'packages/lsp/fixtures/conformance-vim'), { recursive: true })
}

const cli = (...args: string[]) => run(process.execPath, [nodePath.join(copy, 'packages/lsp-mcp/dist/cli.js'), ...args])

test('a record folder and a seam language folder are all a new language takes', { timeout: 900_000 }, () => {
  copyRepository()
  addVimScript()
  // The two lists the folders make, regenerated as their tests say; then the packages built.
  run('pnpm', ['vitest', 'run', '--project', '@codeseam/lsp', 'packages/lsp/test/languages.test.ts', '-u', '-t', 'is generated'])
  run('pnpm', [
    'vitest',
    'run',
    '--project',
    '@codeseam/lsp-local',
    'packages/lsp-local/test/language-list.test.ts',
    '-u',
    '-t',
    'is generated',
  ])
  expect(readFileSync(nodePath.join(copy, 'packages/lsp/src/languages/list.ts'), 'utf8')).toContain("from './vim/language.js'")
  expect(readFileSync(nodePath.join(copy, 'packages/lsp-local/src/languages/list.ts'), 'utf8')).toContain("from './vim/record.js'")
  run('pnpm', ['build'])

  // `codeseam doctor` lists it missing, with the install command derived from its package; `codeseam install`
  // installs it; then doctor finds it.
  const before = JSON.parse(cli('doctor', '--json')) as { languages: Array<{ id: string; found: boolean; install: string }> }
  const missing = before.languages.find((l) => l.id === 'vim')
  expect(missing).toMatchObject({ found: false, install: expect.stringContaining('vim-language-server@2.3.1') })
  expect(cli('install', 'vim')).toContain('vim: installed')
  const after = JSON.parse(cli('doctor', '--json')) as { languages: Array<{ id: string; found: boolean }> }
  expect(after.languages.find((l) => l.id === 'vim')?.found).toBe(true)

  // The generated docs tables take its record.
  run('pnpm', ['vitest', 'run', '--project', '@codeseam/lsp-local', 'packages/lsp-local/test/language-docs.test.ts'], {
    CODESEAM_WRITE_DOCS: '1',
  })
  expect(readFileSync(nodePath.join(copy, 'README.md'), 'utf8')).toMatch(/\| Vim script \|.*vim-language-server/)

  // The conformance kit runs on its fixture, with the real server, and every check its record expects passes.
  const report = run('pnpm', [
    'vitest',
    'run',
    '--project',
    '@codeseam/lsp-local',
    'packages/lsp-local/test/conformance.test.ts',
    '-t',
    '\\(vim\\)',
  ])
  expect(report).toContain('conformance of provider "local:vim" on the vim fixture')
  expect(report).toMatch(/\b1 passed, 0 failed/)
})
