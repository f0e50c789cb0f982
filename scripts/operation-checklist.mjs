#!/usr/bin/env node
// The "24th operation" checklist: which files must change to add an operation to the seam?
//
// Copies the repository's files (tracked, plus untracked ones not ignored, so a change in progress counts)
// into a scratch folder, adds a dummy operation to `lspOperations` in the copy's packages/lsp/src/vocabulary.ts,
// type-checks every package the way its `typecheck` script does, and prints the errors grouped by file,
// ending with "N files must change". Every place that must handle a new operation should be a compile error;
// a place this list misses is a place the compiler cannot find.
//
// Usage: node scripts/operation-checklist.mjs [--bare] [--keep]
//   --bare  add the operation to `lspOperations` only (by default its vocabulary entries are filled in too)
//   --keep  leave the scratch folder for inspection
// Exit code: 0 when the check ran (errors are its expected output), 1 when it could not run.

import { execFileSync, spawn } from 'node:child_process'
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import * as os from 'node:os'
import * as path from 'node:path'

const dummy = 'dummyOperation'
const keep = process.argv.includes('--keep')
const bare = process.argv.includes('--bare')

/** The check could not run: reported and exits 1 (after the scratch folder is removed). */
class CannotRun extends Error {}
function fail(message) {
  throw new CannotRun(message)
}

const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim()
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codeseam-checklist-'))

try {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '')
  const packageDirs = new Set()
  for (const file of files) {
    const from = path.join(repo, file)
    // A tracked file deleted in the working tree is not part of the tree being checked; node_modules (a
    // symlinked one is not a directory, so `node_modules/` in .gitignore misses it) are mirrored below.
    if (file.split('/').includes('node_modules') || !fs.existsSync(from) || fs.lstatSync(from).isDirectory()) continue
    const to = path.join(scratch, file)
    fs.mkdirSync(path.dirname(to), { recursive: true })
    fs.cpSync(from, to, { verbatimSymlinks: true })
    if (path.basename(file) === 'package.json') packageDirs.add(path.dirname(file))
  }

  // node_modules are untracked: mirror each with symlinks. A link into the repository's own folders (a pnpm
  // workspace link such as @codeseam/lsp) must land in the scratch copy, or the check would type-check the
  // original sources; everything else (the .pnpm store, .bin) points at the original.
  const original = fs.realpathSync(repo)
  const inRepo = (target) => target.startsWith(original + path.sep) && !target.startsWith(path.join(original, 'node_modules') + path.sep)
  function mirror(fromDir, toDir) {
    fs.mkdirSync(toDir, { recursive: true })
    for (const entry of fs.readdirSync(fromDir, { withFileTypes: true })) {
      const from = path.join(fromDir, entry.name)
      const to = path.join(toDir, entry.name)
      if (entry.isSymbolicLink()) {
        const target = path.resolve(fromDir, fs.readlinkSync(from))
        const real = fs.existsSync(target) ? fs.realpathSync(target) : target
        fs.symlinkSync(inRepo(real) ? path.join(scratch, path.relative(original, real)) : real, to)
      } else if (entry.isDirectory() && entry.name.startsWith('@')) {
        mirror(from, to)
      } else {
        fs.symlinkSync(from, to)
      }
    }
  }
  for (const dir of packageDirs) {
    const modules = path.join(original, dir, 'node_modules')
    if (fs.existsSync(modules)) mirror(modules, path.join(scratch, dir, 'node_modules'))
  }

  const vocabulary = path.join(scratch, 'packages/lsp/src/vocabulary.ts')
  let source = fs.readFileSync(vocabulary, 'utf8')
  const list = /export const lspOperations = \[([^\]]*)\] as const/
  if (!list.test(source)) fail('no `export const lspOperations = [...] as const` in packages/lsp/src/vocabulary.ts')
  source = source.replace(list, (_, items) => `export const lspOperations = [${items.trimEnd()}\n  '${dummy}',\n] as const`)
  // Unless --bare, the vocabulary's own per-operation entries get a copy of `definition`'s, as the author's
  // first step would: otherwise the broken request and result types cascade into every file that touches a
  // request, and the list would name files that handle no operation.
  const completed = []
  if (!bare) {
    for (const block of [
      /export interface LspRequestByOperation \{\n/,
      /export const resultKindByOperation = \{\n/,
      /export const operationInfo = \{\n/,
    ]) {
      const start = block.exec(source)
      if (start === null) continue
      const from = start.index + start[0].length
      const end = source.indexOf('\n}', from)
      const entry = /^( *(?:readonly )?)definition(: .*)$/m.exec(source.slice(from, end))
      if (end === -1 || entry === null) continue
      source = `${source.slice(0, end)}\n${entry[1]}${dummy}${entry[2]}${source.slice(end)}`
      completed.push(/(?:interface|const) (\w+)/.exec(start[0])?.[1] ?? start[0].trim())
    }
  }
  fs.writeFileSync(vocabulary, source)

  // The packages to check: every workspace package whose typecheck script is `tsc ...`.
  const packages = [...packageDirs]
    .filter((dir) => dir.startsWith('packages/'))
    .sort()
    .flatMap((dir) => {
      const script = JSON.parse(fs.readFileSync(path.join(scratch, dir, 'package.json'), 'utf8')).scripts?.typecheck
      if (script === undefined) return []
      const args = script.split(/\s+/)
      if (args[0] !== 'tsc' || script.includes('&&')) fail(`${dir}: typecheck script "${script}" is not a single tsc run`)
      return [{ dir, args: args.slice(1) }]
    })
  if (packages.length === 0) fail('found no package with a typecheck script')

  // Sequential: the machine is shared, and tsc runs are memory-hungry.
  const errors = new Map()
  for (const { dir, args } of packages) {
    const cwd = path.join(scratch, dir)
    const require = createRequire(path.join(cwd, 'package.json'))
    let tsc
    try {
      tsc = require.resolve('typescript/bin/tsc')
    } catch {
      tsc = createRequire(path.join(scratch, 'package.json')).resolve('typescript/bin/tsc')
    }
    const { code, output } = await run(process.execPath, [tsc, ...args, '--pretty', 'false'], cwd)
    const before = countErrors(errors)
    const found = parse(output, cwd, errors)
    process.stderr.write(`${dir}: ${found} errors (${countErrors(errors) - before} new)\n`)
    // tsc failing without a single parseable error did not type-check at all (bad config, crash).
    if (code !== 0 && found === 0) fail(`${dir}: tsc exited ${code} without diagnostics:\n${output}`)
  }

  // The vocabulary is always the first file to change, even when its filled-in entries left no error there.
  const vocabularyPath = 'packages/lsp/src/vocabulary.ts'
  if (completed.length > 0 && !errors.has(vocabularyPath)) errors.set(vocabularyPath, new Set())
  const byFile = [...errors.entries()].sort(([a], [b]) => a.localeCompare(b))
  for (const [file, messages] of byFile) {
    console.log(file)
    if (file === vocabularyPath && completed.length > 0)
      console.log(`  (the operation's own entries, filled in for this check: ${completed.join(', ')})`)
    for (const message of messages) console.log(`  ${message}`)
  }
  console.log(`${byFile.length} files must change`)
} catch (error) {
  console.error(`operation-checklist: could not run: ${error instanceof CannotRun ? error.message : (error?.stack ?? error)}`)
  process.exitCode = 1
} finally {
  if (keep) console.error(`scratch copy kept at ${scratch}`)
  else fs.rmSync(scratch, { recursive: true, force: true })
}

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Adds tsc's `file(line,col): error TSxxxx: message` diagnostics to `errors` (keyed by repository path). */
function parse(output, cwd, errors) {
  let found = 0
  // Only the first line of each diagnostic: tsc's indented elaboration is not needed to find the place.
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line)
    if (match === null) continue
    found++
    const [, file, row, column, code, message] = match
    // The same file is reached from several packages (workspace sources resolve through @codeseam/source).
    const key = path.relative(scratch, path.resolve(cwd, file))
    const messages = errors.get(key) ?? new Set()
    errors.set(key, messages)
    messages.add(`${row}:${column} ${code} ${message}`)
  }
  return found
}

function countErrors(errors) {
  let n = 0
  for (const messages of errors.values()) n += messages.size
  return n
}
