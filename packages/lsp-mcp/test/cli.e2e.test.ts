import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'

import { toolCommand } from '../src/cli/flags.js'
import { runCli } from '../src/cli/main.js'
import { collectTools } from '../src/tool-set.js'
import { slowHoverSetup, waitForLog } from './support/fault-server.js'
import { runBuiltCli, type CliRun } from './support/mcp-process.js'
import { copyFixture, positionOf, removeWorkspace } from './support/workspace.js'

// The `codeseam` CLI as people and scripts run it: the built bin, a real workspace, real language servers.

let root: string

function codeseam(
  args: ReadonlyArray<string>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; started?: (pid: number) => void } = {},
): Promise<CliRun> {
  return runBuiltCli(args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...options.env },
    ...(options.started === undefined ? {} : { started: options.started }),
  })
}

/** The 1-based line of the first occurrence of `text` in a file. */
const lineOfText = async (path: string, text: string) => (await readFile(path, 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1

const location = (position: { line: number; column: number }, path: string) => `${path}:${position.line}:${position.column}`

beforeAll(async () => {
  root = await copyFixture()
})

afterAll(async () => {
  await removeWorkspace(root)
})

describe('human output', () => {
  it('navigate prints clickable path:line:col for every reference, no colors off a terminal, and progress on stderr', async () => {
    const run = await codeseam(['navigate', 'src/shapes.ts', '--symbol', 'totalArea', '--kind', 'references'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(location(await positionOf(root, 'src/main.ts', 'totalArea(shapes'), 'src/main.ts'))
    expect(run.stdout).toContain(location(await positionOf(root, 'src/broken.ts', 'totalArea([]'), 'src/broken.ts'))
    expect(run.stdout).not.toContain('\x1b[')
    expect(run.stderr).toMatch(/codeseam: typescript .*starting the language server/)
  })

  it('paths stay clickable from another directory, and --color forces colors', async () => {
    const run = await codeseam(['diagnostics', 'src/broken.ts', '--root', root, '--color', '--quiet'], { cwd: nodePath.dirname(root) })
    expect(run.code, run.stderr).toBe(0)
    const expected = location(await positionOf(root, 'src/broken.ts', 'wrongCount'), `${nodePath.basename(root)}/src/broken.ts`)
    expect(run.stdout).toContain(`\x1b[36m${expected}\x1b[39m`)
    expect(run.stderr).toBe('')
  })

  it('hover, symbols and status answer with what the code says', async () => {
    const hover = await codeseam(['hover', 'src/shapes.ts', '--symbol', 'Circle.area', '-q'])
    expect(hover.code, hover.stderr).toBe(0)
    expect(hover.stdout).toContain('Circle.area(): number')
    const symbols = await codeseam(['symbols', '--query', 'Square', '-q'])
    expect(symbols.code, symbols.stderr).toBe(0)
    expect(symbols.stdout).toContain(location(await positionOf(root, 'src/shapes.ts', 'Square implements'), 'src/shapes.ts'))
    const status = await codeseam(['status', '-q'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toContain(`workspaces: ${nodePath.basename(root)}\n`)
    expect(status.stdout).not.toContain(root)
  })
})

describe('--json', () => {
  it('prints the outcome envelope with the structured result', async () => {
    const run = await codeseam([
      'navigate',
      'src/main.ts',
      '--line',
      String((await positionOf(root, 'src/main.ts', 'new Square')).line),
      '--match',
      'Square',
      '--kind',
      'definition',
      '--json',
    ])
    expect(run.code, run.stderr).toBe(0)
    const outcome = JSON.parse(run.stdout)
    expect(outcome).toMatchObject({ ok: true, tool: 'code_navigate' })
    const locations = outcome.structured.files.flatMap((f: any) =>
      f.locations.map((l: any) => ({ path: f.path, line: l.line, column: l.column })),
    )
    expect(locations).toContainEqual({ path: 'src/shapes.ts', ...(await positionOf(root, 'src/shapes.ts', 'Square implements')) })
    expect(run.stderr).toBe('')
  })

  it('a failed query exits 1 with its LspError code, in JSON and in text', async () => {
    const json = await codeseam(['hover', 'src/shapes.ts', '--symbol', 'NoSuchThing', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    const text = await codeseam(['navigate', 'src/missing.ts', '--symbol', 'x', '--kind', 'definition', '-q'])
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(/error NOT_FOUND/)
    expect(text.stdout).toBe('')
  })
})

describe('usage', () => {
  it('exits 2 on an unknown command, an unknown flag, a bad value or a missing required flag', async () => {
    for (const args of [
      ['teleport'],
      ['navigate', 'src/main.ts', '--symbol', 'report', '--kind', 'references', '--bogus'],
      ['navigate', 'src/main.ts', '--symbol', 'report', '--kind', 'everywhere'],
      ['navigate', 'src/main.ts', '--symbol', 'report'],
      ['hover', 'src/main.ts', '--line', 'three'],
      ['status', '--trust', 'maybe'],
    ]) {
      const run = await codeseam(args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2)
      expect(run.stderr).toMatch(/--help/)
    }
  })

  // Issue 32: these exited 1, named the tool's input fields, and printed Node's parser text.
  it("exits 2 when the tool refuses the arguments themselves, naming the flags, not the tool's fields", async () => {
    for (const [args, says] of [
      [['navigate', 'src/shapes.ts', '--kind', 'references'], 'a target needs a symbol, or a line (with --match or column)'],
      [
        ['navigate', 'src/shapes.ts', '--line', '0', '--kind', 'references'],
        '- --line: expected a value greater than or equal to 1, got 0',
      ],
      [
        ['hierarchy', 'src/shapes.ts', '--symbol', 'totalArea', '--kind', 'callers', '--depth', '99'],
        '- --depth: expected a value less than or equal to 4',
      ],
    ] as const) {
      const run = await codeseam([...args, '-q'])
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2)
      expect(run.stderr).toContain(says)
      expect(run.stderr).not.toMatch(/matchText|target\.line/)
      expect(run.stderr).toContain(`Run \`codeseam ${args[0]} --help\` for usage.`)
    }
    // A query that ran and found nothing is not a usage error.
    const missing = await codeseam(['navigate', 'src/shapes.ts', '--line', '3', '--match', 'nothere', '--kind', 'definition', '-q'])
    expect(missing.code, missing.stderr).toBe(1)
  })

  it('a folder given where a file goes is named a folder (it said "does not exist" or "no language server")', async () => {
    for (const args of [
      ['symbols', 'src'],
      ['diagnostics', 'src'],
      ['hover', 'src', '--symbol', 'x'],
    ]) {
      const run = await codeseam([...args, '-q'])
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2)
      expect(run.stderr).toContain('"src" is a folder, not a file: name a file in it')
    }
    const missing = await codeseam(['symbols', 'src/nothere.ts', '-q'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('error NOT_FOUND')
  })

  // Issue 32: `--version` printed 0.0.0 for every unreleased build.
  it('--version names an unreleased build by the commit it was built from, as doctor does', async () => {
    const run = await codeseam(['--version'])
    expect(run.code).toBe(0)
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    if (pkg.version === '0.0.0') expect(run.stdout).toMatch(/^0\.0\.0-dev(\+[0-9a-f]{10})?\n$/)
    else expect(run.stdout).toBe(`${pkg.version}\n`)
    const doctor = await codeseam(['doctor'])
    expect(doctor.stdout.split('\n')[0]).toContain(`codeseam ${run.stdout.trim()}, Node.js`)
  })

  it('a Latin-1 file is said to be text that is not UTF-8, with how to convert it (it said "binary content")', async () => {
    const latin1 = nodePath.join(root, 'src/latin1.ts')
    await writeFile(latin1, Buffer.from("export const caf\xe9 = 'cr\xe8me'\n", 'latin1'))
    onTestFinished(() => rm(latin1, { force: true }))
    const run = await codeseam(['symbols', 'src/latin1.ts', '-q'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('text that is not UTF-8 (an 8-bit encoding such as Latin-1?)')
    expect(run.stderr).toContain('iconv -f latin1 -t utf-8')
    expect(run.stderr).not.toContain('binary')
  })

  it('a file whose name is not UTF-8 is named as such (it said "does not exist")', async () => {
    const name = Buffer.concat([Buffer.from(`${root}/src/caf`), Buffer.from([0xe9]), Buffer.from('.ts')])
    await writeFile(name, 'export const x = 1\n')
    onTestFinished(() => rm(name, { force: true }))
    // What a shell hands Node for that name: the byte decoded as U+FFFD.
    const run = await codeseam(['symbols', 'src/caf\uFFFD.ts', '-q'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('a file whose name is not UTF-8 cannot be named through codeseam; rename it')
    expect(run.stderr).not.toContain('does not exist')
  })

  // Issue 32: an inherited member was NOT_FOUND with no hint of where it is declared; "add kind" named no flag.
  it('an inherited member names the base class that declares it; an ambiguous name is told the flags that narrow it', async () => {
    const base = nodePath.join(root, 'src/base.ts')
    const app = nodePath.join(root, 'src/app.ts')
    await writeFile(base, 'export class Base {\n  route(path: string): string {\n    return path\n  }\n}\n')
    await writeFile(app, "import { Base } from './base.js'\nexport class App extends Base {\n  listen(): void {}\n}\n")
    onTestFinished(() => Promise.all([rm(base, { force: true }), rm(app, { force: true })]).then(() => undefined))
    const inherited = await codeseam(['hover', 'src/app.ts', '--symbol', 'App.route', '-q'])
    expect(inherited.code).toBe(1)
    expect(inherited.stderr).toContain(
      `"route" is declared elsewhere (inherited?): Base.route (method) src/base.ts:${await lineOfText(base, 'route(')}`,
    )
    const ambiguous = await codeseam(['hover', 'src/shapes.ts', '--symbol', 'area', '-q'])
    expect(ambiguous.stderr).toContain('add --symbol-kind, a dotted container name in --symbol, or --line')
  })

  it('an unknown flag is named, with the closest one; under --json a usage error is JSON', async () => {
    const text = await codeseam(['navigate', 'src/shapes.ts', '--kindd', 'references'])
    expect(text.code).toBe(2)
    expect(text.stderr).toContain('codeseam: unknown flag --kindd (did you mean --kind?)')
    expect(text.stderr).not.toContain('To specify a positional argument')
    const json = await codeseam(['navigate', 'src/shapes.ts', '--kindd', 'references', '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'unknown flag --kindd (did you mean --kind?)',
        data: { usage: true, command: 'navigate' },
      },
    })
    const value = await codeseam(['navigate', 'src/shapes.ts', '--line'])
    expect(value.stderr).toContain('codeseam: --line needs a value')
  })

  // Issue 32: ids were random per process ("apply by id" could not work from a terminal), the documented
  // `--apply "Organize Imports"` found nothing without --only, and a dry run printed `applied`.
  it('an action id printed by one command applies in the next; a source action applies by title without --only', async () => {
    const listed = await codeseam(['actions', 'src/imports.ts', '--line', '2', '--only', 'source.organizeImports', '-q'])
    expect(listed.code, listed.stderr).toBe(0)
    const id = /- (ca-[0-9a-f]+): Organize Imports/.exec(listed.stdout)?.[1]
    expect(id, listed.stdout).toBeDefined()
    const again = await codeseam(['actions', 'src/imports.ts', '--line', '2', '--only', 'source.organizeImports', '-q'])
    expect(again.stdout).toContain(`- ${id}: Organize Imports`)
    for (const apply of [id ?? '', 'Organize Imports']) {
      const run = await codeseam(['actions', 'src/imports.ts', '--line', '2', '--apply', apply, '--dry-run', '-q'])
      expect(run.code, `${apply}: ${run.stderr}`).toBe(0)
      expect(run.stdout).toMatch(/^previewed \(not applied\) "Organize Imports"\n/)
      expect(run.stdout).toContain('modify src/imports.ts: 1 edit')
    }
  })

  it("a dry run's receipt says how to apply in the CLI's words", async () => {
    const run = await codeseam(['rename', 'src/shapes.ts', '--symbol', 'totalArea', '--to', 'sumArea', '--dry-run', '-q'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('dry run: nothing was written; run it again without --dry-run to apply')
    expect(run.stdout).not.toContain('dryRun')
  })

  it('--help works for the program and for every command, listing the flags of the tool schema', async () => {
    const main = await codeseam(['--help'])
    expect(main.code).toBe(0)
    const commands = collectTools().map(toolCommand)
    for (const command of commands) expect(main.stdout).toContain(command.name)
    // Every command's help, in process (spawning a Node process per command costs seconds on a busy machine).
    for (const command of [...commands.map((c) => c.name), 'mcp', 'serve', 'daemon', 'doctor', 'install']) {
      let stdout = ''
      const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true }, cwd: root, env: {} }
      expect(await runCli([command, '--help'], io), command).toBe(0)
      expect(stdout).toContain(`Usage: codeseam ${command}`)
    }
    const mcp = await codeseam(['mcp', '--help'])
    expect(mcp.code).toBe(0)
    expect(mcp.stdout).toContain('--allow-edits')
    const navigate = await codeseam(['navigate', '--help'])
    expect(navigate.stdout).toMatch(/--kind definition\|typeDefinition\|declaration\|implementation\|references/)
    expect(navigate.stdout).toContain('--symbol')
  })
})

describe('changes', () => {
  it('rename --dry-run previews the diff and writes nothing; without it the rename is applied', async () => {
    const before = await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')
    const preview = await codeseam(['rename', 'src/main.ts', '--symbol', 'describeShapes', '--to', 'describeAll', '--dry-run', '-q'])
    expect(preview.code, preview.stderr).toBe(0)
    expect(preview.stdout).toContain('+export function describeAll')
    expect(await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')).toBe(before)
    const apply = await codeseam(['rename', 'src/main.ts', '--symbol', 'describeShapes', '--to', 'describeAll', '-q'])
    expect(apply.code, apply.stderr).toBe(0)
    const after = await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')
    expect(after).toContain('console.log(describeAll())')
    expect(after).not.toContain('describeShapes')
  })

  it('a replacement that breaks callers in other files is written and exits 3, naming them; --dry-run predicts it', async () => {
    const signature =
      'export function totalArea(shapes: ReadonlyArray<Shape>, scale: number, unit: string): number {\n  return shapes.length * scale * unit.length\n}'
    const before = await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')
    const dry = await codeseam(['replace', 'src/shapes.ts', '--symbol', 'totalArea', '--text', signature, '--dry-run', '-q'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/would introduce [1-9]\d* errors? in [1-9]\d* files?/)
    expect(dry.stdout).toMatch(/src\/main\.ts:\d+:\d+ error/)
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toBe(before)
    const run = await codeseam(['replace', 'src/shapes.ts', '--symbol', 'totalArea', '--text', signature, '-q'])
    expect(run.code, run.stderr).toBe(3)
    // main.ts calls totalArea with two arguments and was not touched: its new error is in the receipt.
    expect(run.stdout).toMatch(/src\/main\.ts:\d+:\d+ error/)
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toContain('unit: string')
  })

  it('a rename the server refuses exits 1 with the reason', async () => {
    const run = await codeseam(['rename', 'src/main.ts', '--line', '1', '--match', 'import', '--to', 'x', '-q'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/error [A-Z_]+/)
  })
})

describe('trust', () => {
  it('an untrusted workspace cannot choose the server to run; the CLI says how to trust it', async () => {
    await mkdir(nodePath.join(root, 'tools'), { recursive: true })
    // Never executed: an untrusted root may not name a server inside itself.
    await writeFile(nodePath.join(root, 'tools', 'fake-server'), '#!/bin/sh\ntouch ran-from-workspace\n', { mode: 0o755 })
    const config = nodePath.join(root, 'tools', 'codeseam.json')
    await writeFile(
      config,
      JSON.stringify({
        profiles: [{ id: 'fake', command: nodePath.join(root, 'tools', 'fake-server'), args: [], extensions: { '.fake': 'fake' } }],
      }),
    )
    await writeFile(nodePath.join(root, 'x.fake'), 'alpha\n')
    const run = await codeseam(['hover', 'x.fake', '--line', '1', '--match', 'alpha', '--config', config, '-q'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/error UNTRUSTED/)
    expect(run.stderr).toContain('--trust trusted')
    expect(existsSync(nodePath.join(root, 'ran-from-workspace'))).toBe(false)
  })
})

describe('interrupt', () => {
  it('Ctrl-C cancels the running request at the language server and exits 130', async () => {
    const { config, log } = await slowHoverSetup(root)
    let pid: number | undefined
    const running = codeseam(['hover', 'notes.slow', '--line', '1', '--match', 'slow', '--config', config], { started: (p) => (pid = p) })
    await waitForLog(log, (e) => e.event === 'received' && e.method === 'textDocument/hover', 'the hover request to reach the server')
    expect(pid).toBeDefined()
    process.kill(pid ?? 0, 'SIGINT')
    const run = await running
    expect(run.code).toBe(130)
    expect(run.stderr).toMatch(/error CANCELLED/)
    await waitForLog(log, (e) => e.event === 'received' && e.method === '$/cancelRequest', 'the server to get $/cancelRequest')
  })
})
