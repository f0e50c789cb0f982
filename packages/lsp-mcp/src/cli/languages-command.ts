import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'

import { builtinIndexers, builtinLanguages, installSourceFacts, type BuiltinIndexer, type BuiltinLanguage } from '@codeseam/lsp-local'

import { serverInfo } from '../server-info.js'
import { parseError, UsageError } from './arguments.js'
import { doctorHelp, exitCodes, installHelp } from './help.js'
import type { CliIo } from './io.js'

/**
 * `codeseam doctor` and `codeseam install`: the built-in languages as this machine has them, and the one command
 * that installs a missing server. Both come from the language records (nothing here lists languages); nothing is
 * installed at query time, only when `codeseam install` is typed.
 */

/** Whether a server is installed with codeseam itself (one of its npm dependencies): nothing of its own to run. */
const shipsWithCodeseam = (language: BuiltinLanguage): boolean => installSourceFacts[language.installSource].installedBy === 'codeseam'

/** What `codeseam doctor` and a missing server's error tell the user to run. */
export function installAdvice(language: BuiltinLanguage): string {
  return shipsWithCodeseam(language)
    ? `it ships with @codeseam/lsp-local (an npm dependency): reinstall codeseam (in a clone of codeseam: pnpm install)`
    : `codeseam install ${language.id}   (runs: ${language.install})`
}

function parse(
  args: ReadonlyArray<string>,
  command: string,
  flags: ReadonlyArray<string>,
): { values: Readonly<Record<string, boolean | undefined>>; positionals: ReadonlyArray<string> } {
  const options = Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean' as const }]))
  try {
    const parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    })
    return { values: parsed.values as Record<string, boolean | undefined>, positionals: parsed.positionals }
  } catch (error) {
    throw parseError(error, command, [...flags, 'help'])
  }
}

function claims(language: BuiltinLanguage): string {
  return [...language.extensions, ...language.fileNames, ...language.interpreters.map((interpreter) => `#!${interpreter}`)].join(' ')
}

/** Where a found server is: its executable, or the script a `node` runs (after any options of node's), and its version. */
function where(language: BuiltinLanguage): string {
  const path = language.leadingArgs?.find((arg) => !arg.startsWith('-')) ?? language.command ?? ''
  return `${path}${language.version === undefined ? '' : ` (${language.version})`}`
}

/** `codeseam doctor [--json]`: every built-in language, found or missing, its version and install command. Exit 0. */
export async function runDoctor(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, 'doctor', ['json'])
  if (values['help'] === true) {
    io.stdout.write(`${doctorHelp()}\n`)
    return exitCodes.ok
  }
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments, got "${positionals.join(' ')}"`, 'doctor')
  const languages = await builtinLanguages()
  const indexers = await builtinIndexers(io.env)
  if (values['json'] === true) {
    io.stdout.write(`${JSON.stringify({ version: serverInfo.version, node: process.version, languages, indexers }, null, 2)}\n`)
    return exitCodes.ok
  }
  const ready = languages.filter((l) => l.found)
  const lines = [`codeseam ${serverInfo.version}, Node.js ${process.version}, ${process.platform} ${process.arch}`, '']
  for (const language of languages) {
    const state = !language.enabledByDefault ? 'off' : language.found ? 'ok' : 'missing'
    lines.push(`${state.padEnd(8)} ${language.id.padEnd(27)} ${language.language}: ${language.server}`)
    lines.push(`${' '.repeat(9)}files: ${claims(language)}`)
    if (language.found) {
      lines.push(`${' '.repeat(9)}${where(language)}`)
      for (const [operation, why] of Object.entries(language.lacking ?? {})) lines.push(`${' '.repeat(9)}lacks ${operation}: ${why}`)
    } else {
      lines.push(`${' '.repeat(9)}not found: ${language.why ?? 'unknown'}`)
      lines.push(`${' '.repeat(9)}install: ${installAdvice(language)}`)
    }
  }
  const missing = languages.filter((l) => !l.found && l.enabledByDefault)
  lines.push(
    '',
    `${ready.length} of ${languages.length} built-in language servers found` +
      (missing.length === 0 ? '.' : `; missing: ${missing.map((l) => l.id).join(', ')}.`),
    '',
    'Indexers (`codeseam index`):',
    ...indexers.flatMap(indexerLines),
  )
  io.stdout.write(`${lines.join('\n')}\n`)
  return exitCodes.ok
}

/** An indexer as `codeseam doctor` lists it. */
function indexerLines(indexer: BuiltinIndexer): string[] {
  const pad = ' '.repeat(9)
  return [
    `${(indexer.found ? 'ok' : 'missing').padEnd(8)} ${indexer.id.padEnd(27)} ${indexer.language}: ${indexer.indexer}`,
    indexer.found
      ? `${pad}${indexer.entry ?? ''} (${indexer.version ?? ''}${indexer.compilerVersion === undefined ? '' : `, bundles ${indexer.compilerVersion}`})`
      : `${pad}not found: ${indexer.why ?? 'unknown'}\n${pad}install: codeseam install ${indexer.id}   (runs: ${indexer.install})`,
  ]
}

/** The records a name on `codeseam install`'s command line means: a record id, else a language's name (`go`, `rust`, `c++`). */
export function languagesNamed(name: string, languages: ReadonlyArray<BuiltinLanguage>): ReadonlyArray<BuiltinLanguage> {
  const wanted = name.toLowerCase()
  if (wanted === 'all') return languages.filter((l) => !shipsWithCodeseam(l) && l.enabledByDefault)
  const byId = languages.filter((l) => l.id === wanted)
  if (byId.length > 0) return byId
  const byLanguage = languages.filter((l) =>
    l.language
      .toLowerCase()
      .split(/\s*\/\s*/)
      .includes(wanted),
  )
  // A language's name means the servers it runs by default (`python` is pyright, not the basedpyright alternative).
  const defaults = byLanguage.filter((l) => l.enabledByDefault)
  return defaults.length > 0 ? defaults : byLanguage
}

function runShell(command: string, io: CliIo): Promise<number | string> {
  return new Promise((resolve) => {
    // GOTOOLCHAIN=local unless the user chose: `go install` must not fetch another Go toolchain by itself.
    // The command is one line of shell, as documented (`~` and all): /bin/sh runs it.
    const child = spawn(command, {
      shell: true,
      cwd: io.cwd,
      env: { GOTOOLCHAIN: 'local', ...io.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk: Buffer) => io.stdout.write(chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk.toString()))
    child.on('error', (error) => resolve(error.message))
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'))
  })
}

/** `codeseam install LANGUAGE... [--dry-run]`: runs each missing server's record install command. */
export async function runInstall(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, 'install', ['dry-run'])
  if (values['help'] === true) {
    io.stdout.write(`${installHelp()}\n`)
    return exitCodes.ok
  }
  const languages = await builtinLanguages()
  const indexers = await builtinIndexers(io.env)
  if (positionals.length === 0) {
    throw new UsageError(
      `install needs a language: one of ${languages.map((l) => l.id).join(', ')}, an indexer (${indexers.map((i) => i.id).join(', ')}), or all`,
      'install',
    )
  }
  let failed = 0
  const indexersChosen = indexers.filter((i) => positionals.some((name) => name === i.id || name.toLowerCase() === 'all'))
  const chosen = positionals.flatMap((name) => {
    const found = languagesNamed(name, languages)
    if (found.length === 0 && indexers.some((i) => i.id === name)) return []
    if (found.length === 0) {
      throw new UsageError(
        `no built-in language "${name}" (languages: ${languages.map((l) => l.id).join(', ')}; indexers: ${indexers.map((i) => i.id).join(', ')}; or all)`,
        'install',
      )
    }
    return found
  })
  for (const indexer of indexersChosen) failed += await installIndexer(indexer, values['dry-run'] === true, io)
  for (const language of [...new Set(chosen)]) {
    if (language.found) {
      io.stdout.write(`${language.id}: already installed: ${where(language)}\n`)
      continue
    }
    if (shipsWithCodeseam(language)) {
      failed++
      io.stderr.write(`${language.id}: missing (${language.why ?? 'not found'}); ${installAdvice(language)}\n`)
      continue
    }
    if (values['dry-run'] === true) {
      io.stdout.write(`${language.id}: would run: ${language.install}\n`)
      continue
    }
    io.stdout.write(`${language.id}: running: ${language.install}\n`)
    const result = await runShell(language.install, io)
    const after = (await builtinLanguages()).find((l) => l.id === language.id)
    if (result === 0 && after?.found === true) {
      io.stdout.write(`${language.id}: installed: ${where(after)}\n`)
    } else {
      failed++
      io.stderr.write(
        result === 0
          ? `${language.id}: the install command succeeded but the server is still not found: ${after?.why ?? 'unknown'}\n`
          : `${language.id}: the install command failed (exit ${result}); nothing else was tried\n`,
      )
    }
  }
  return failed === 0 ? exitCodes.ok : exitCodes.failed
}

/** Installs a missing indexer with its install command (npm, into codeseam's cache); 1 when it failed. */
async function installIndexer(indexer: BuiltinIndexer, dryRun: boolean, io: CliIo): Promise<number> {
  if (indexer.found) {
    io.stdout.write(`${indexer.id}: already installed: ${indexer.entry ?? ''} (${indexer.version ?? ''})\n`)
    return 0
  }
  if (dryRun) {
    io.stdout.write(`${indexer.id}: would run: ${indexer.install}\n`)
    return 0
  }
  io.stdout.write(`${indexer.id}: running: ${indexer.install}\n`)
  const result = await runShell(indexer.install, io)
  const after = (await builtinIndexers(io.env)).find((i) => i.id === indexer.id)
  if (result === 0 && after?.found === true) {
    io.stdout.write(`${indexer.id}: installed: ${after.entry ?? ''} (${after.version ?? ''})\n`)
    return 0
  }
  io.stderr.write(
    result === 0
      ? `${indexer.id}: the install command succeeded but the indexer is still not found: ${after?.why ?? 'unknown'}\n`
      : `${indexer.id}: the install command failed (exit ${result})\n`,
  )
  return 1
}
