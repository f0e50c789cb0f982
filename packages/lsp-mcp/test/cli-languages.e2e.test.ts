import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { builtinLanguages, type BuiltinLanguage } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runBuiltCli, type CliRun } from './support/mcp-process.js'

// `codeseam doctor` and `codeseam install`, run as the built bin. A "bare" machine is made by giving the CLI a
// PATH that holds only node and an empty HOME/GOPATH: gopls, rust-analyzer and clangd are then missing, and what
// the CLI says to run must be exactly what docs/cli.md documents.

const repo = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
let bare: string
let bareEnv: NodeJS.ProcessEnv

function codeseam(args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  return runBuiltCli(args, { cwd: repo, env, deadlineMs: 60_000 })
}

/** docs/cli.md's install table: id → the documented command (undefined for "nothing: reinstall codeseam"). */
async function documentedInstalls(): Promise<Map<string, string | undefined>> {
  const text = await readFile(nodePath.join(repo, 'docs', 'cli.md'), 'utf8')
  const table = text.slice(text.indexOf('<!-- install:'), text.indexOf('<!-- /install -->'))
  const rows = new Map<string, string | undefined>()
  for (const match of table.matchAll(/^\| `([^`]+)` \|[^|]*\|[^|]*\| (?:`(.+)`|nothing: reinstall codeseam) \|$/gm)) {
    rows.set(match[1] as string, match[2])
  }
  return rows
}

const doctorJson = async (env?: NodeJS.ProcessEnv) => {
  const run = await codeseam(['doctor', '--json'], env)
  expect(run.code, run.stderr).toBe(0)
  return (JSON.parse(run.stdout) as { languages: BuiltinLanguage[] }).languages
}

beforeAll(async () => {
  bare = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-bare-'))
  await symlink(process.execPath, nodePath.join(bare, 'node'))
  bareEnv = { PATH: bare, HOME: bare, GOPATH: nodePath.join(bare, 'go'), NO_COLOR: '1' }
})

afterAll(async () => {
  await rm(bare, { recursive: true, force: true })
})

describe('codeseam doctor', () => {
  it('lists every language record, in the records’ order, with what this machine has', async () => {
    const languages = await doctorJson()
    const records = await builtinLanguages()
    expect(languages.map((l) => l.id)).toEqual(records.map((r) => r.id))
    for (const language of languages) {
      const record = records.find((r) => r.id === language.id)
      expect(language.found, language.id).toBe(record?.found)
      if (language.found) expect(language.command, language.id).toBeDefined()
      else expect(language.why, language.id).toBeDefined()
    }
  })

  it("on a bare machine names each missing server's install command exactly as docs/cli.md documents it", async () => {
    const documented = await documentedInstalls()
    const languages = await doctorJson(bareEnv)
    expect([...documented.keys()].sort()).toEqual(languages.map((l) => l.id).sort())
    const missing = languages.filter((l) => !l.found)
    // What codeseam does not ship is missing here: the Go, Rust, C/C++, TOML and protobuf servers, and basedpyright.
    expect(missing.map((l) => l.installSource).sort()).toEqual(
      languages
        .filter((l) => l.installSource !== 'dependency')
        .map((l) => l.installSource)
        .sort(),
    )
    const human = await codeseam(['doctor'], bareEnv)
    expect(human.code, human.stderr).toBe(0)
    for (const language of missing) {
      const command = documented.get(language.id)
      expect(command, `${language.id} has an install command in docs/cli.md`).toBeDefined()
      expect(language.install).toBe(command)
      expect(human.stdout).toContain(`install: codeseam install ${language.id}   (runs: ${command})`)
    }
    // The summary names the missing servers that are on by default (an alternative that is off is not missing).
    const missingOn = missing.filter((l) => l.enabledByDefault)
    expect(missingOn.length).toBeLessThan(missing.length)
    expect(human.stdout).toMatch(new RegExp(`missing: ${missingOn.map((l) => l.id).join(', ')}\\.`))
    // Found, but without its helper programs (ShellCheck, shfmt are not on the bare PATH): what it lacks, and why.
    const bash = languages.find((l) => l.id === 'bash')
    expect(bash?.found).toBe(true)
    expect(Object.keys(bash?.lacking ?? {}).sort()).toEqual(['diagnostics', 'format'])
    expect(human.stdout).toContain(`lacks diagnostics: ${bash?.lacking?.diagnostics ?? 'missing'}`)
  })
})

describe('codeseam install', () => {
  it('--dry-run on a bare machine prints the documented command for each missing server and runs nothing', async () => {
    const documented = await documentedInstalls()
    const run = await codeseam(['install', 'all', '--dry-run'], bareEnv)
    expect(run.code, run.stderr).toBe(0)
    const languages = await doctorJson(bareEnv)
    const installable = languages.filter((l) => l.installSource !== 'dependency' && l.enabledByDefault)
    expect(installable.length).toBeGreaterThan(0)
    for (const language of installable) {
      expect(run.stdout).toContain(`${language.id}: would run: ${documented.get(language.id) ?? 'undocumented'}\n`)
    }
    // By language name too: "go" is gopls.
    const go = await codeseam(['install', 'go', '--dry-run'], bareEnv)
    expect(go.stdout).toBe(`gopls: would run: ${documented.get('gopls') ?? 'undocumented'}\n`)
    // A server of two languages is named by either: "java" and "kotlin" are JDT LS.
    for (const name of ['java', 'kotlin']) {
      const jdtls = await codeseam(['install', name, '--dry-run'], bareEnv)
      expect(jdtls.stdout).toBe(`jdtls: would run: ${documented.get('jdtls') ?? 'undocumented'}\n`)
    }
  })

  it('leaves a server that is already there alone', async () => {
    const run = await codeseam(['install', 'yaml', 'typescript'])
    expect(run.code, run.stderr).toBe(0)
    const languages = await builtinLanguages()
    for (const id of ['yaml', 'typescript']) {
      const language = languages.find((l) => l.id === id)
      expect(run.stdout).toContain(`${id}: already installed: ${language?.leadingArgs?.[0] ?? language?.command ?? 'missing'}`)
    }
  })

  it('runs the install command for real and reports the failure of one that cannot succeed', async () => {
    // On the bare machine `go` is not on PATH: the documented command runs, fails, and says so (exit 1).
    const run = await codeseam(['install', 'gopls'], bareEnv)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`gopls: running: ${(await documentedInstalls()).get('gopls') ?? 'undocumented'}`)
    expect(run.stderr).toMatch(/gopls: the install command failed \(exit 127\)/)
  })

  it('refuses a name that is no built-in language, listing the ones there are (exit 2)', async () => {
    const run = await codeseam(['install', 'cobol'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('no built-in language "cobol" (languages: typescript,')
    const none = await codeseam(['install'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('install needs a language')
  })
})
