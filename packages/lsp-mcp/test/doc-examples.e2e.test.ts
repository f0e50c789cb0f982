import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { privateRuntimeDir, removeDir } from './support/daemon.js'
import { runBuiltCli } from './support/mcp-process.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

/*
 * Every `codeseam` line of README.md's and docs/cli.md's `sh` blocks, run as a user would (issue 32: documented
 * examples failed): on a fresh copy of the example workspace per document, in the order written, each held to the
 * exit code the line shows (`# exit N`, else 0). A synopsis line (`[flags]`, `<command>`, `A | B`) is not a command;
 * a line that installs or serves says `# not run: why`, and the test lists those, so none is skipped silently.
 */

const repo = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

interface Example {
  readonly line: number
  readonly args: string[]
  readonly exit: number
}

/** Splits a shell line into words (single and double quotes; no expansion is used by the docs). */
function words(text: string): string[] {
  const out: string[] = []
  const pattern = /'([^']*)'|"([^"]*)"|(\S+)/g
  for (const match of text.matchAll(pattern)) out.push(match[1] ?? match[2] ?? match[3] ?? '')
  return out
}

/** The command text and its trailing comment (a `#` outside quotes). */
function splitComment(line: string): { command: string; comment: string } {
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quote !== undefined) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && (i === 0 || line[i - 1] === ' ')) return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() }
  }
  return { command: line.trim(), comment: '' }
}

function examplesOf(file: string): { run: Example[]; notRun: string[] } {
  const lines = readFileSync(nodePath.join(repo, file), 'utf8').split('\n')
  const run: Example[] = []
  const notRun: string[] = []
  let inShell = false
  lines.forEach((text, index) => {
    if (text.startsWith('```')) {
      inShell = !inShell && text.trim() === '```sh'
      return
    }
    if (!inShell) return
    const { command, comment } = splitComment(text)
    if (!command.startsWith('codeseam ')) return
    if (/[[<]|\s\|\s|…|\.\.\./.test(command)) return // a synopsis, not a command
    if (comment.startsWith('not run:')) {
      notRun.push(`${file}:${index + 1} ${command} (${comment})`)
      return
    }
    const exit = /^exit (\d+)$/.exec(comment)?.[1]
    run.push({ line: index + 1, args: words(command).slice(1), exit: exit === undefined ? 0 : Number(exit) })
  })
  return { run, notRun }
}

const documents = ['README.md', 'docs/cli.md'] as const

describe.each(documents)('the codeseam examples of %s', (file) => {
  const { run, notRun } = examplesOf(file)
  let root: string
  let runtime: string
  beforeAll(async () => {
    root = await copyFixture()
    runtime = privateRuntimeDir()
  })
  afterAll(async () => {
    await removeWorkspace(root)
    removeDir(runtime)
  })

  it('has examples to run, and says why each one it does not run is not run', () => {
    expect(run.length).toBeGreaterThan(3)
    for (const line of notRun) expect(line).toMatch(/\(not run: \S.+\)$/)
    if (notRun.length > 0) console.log(`not run (installs or serves):\n${notRun.join('\n')}`)
  })

  // In order: a later line may depend on an earlier one (a rename applied after its preview).
  it.each(run.map((example) => [`${file}:${example.line} codeseam ${example.args.join(' ')}`, example] as const))(
    '%s',
    async (_, example) => {
      const result = await runBuiltCli(example.args, {
        cwd: root,
        env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', CODESEAM_RUNTIME_DIR: runtime },
      })
      expect(result.code, `exit code\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(example.exit)
      if (example.exit === 0) expect(result.stdout.trim().length, 'prints an answer').toBeGreaterThan(0)
    },
    180_000,
  )
})
