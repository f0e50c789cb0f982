// `pnpm bench [--large] [--build] [--runs N] [--rounds N] [--skip-cold] [--only SECTIONS] [--out FILE] [--no-docs]`:
// the cross-layer benchmark (bench/, see docs/performance.md), then any package's own narrow benchmarks
// (packages/*/bench). `--runs N` runs the cross-layer bench N times, each to its own JSON, and summarises them
// (bench/src/summarize.ts: each target's figure per run and their median), as docs/lsp-local.md's three runs.
//
// Everything runs from TypeScript sources, so a fresh clone needs no build. The MCP layer uses the built
// `codeseam` CLI when packages/lsp-mcp/dist is at least as new as its sources; `--build` builds it first
// (about four minutes with type declarations on a busy 2-core machine, hence not the default).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const build = process.argv.includes('--build')
let args = process.argv.slice(2).filter((arg) => arg !== '--build')
/** Removes `--name VALUE` (or `--name=VALUE`) from args, returning VALUE. */
const take = (name) => {
  const index = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`))
  if (index < 0) return undefined
  const value = args[index].includes('=') ? args[index].slice(name.length + 1) : args[index + 1]
  args = args.filter((_, i) => i !== index && (args[index].includes('=') || i !== index + 1))
  return value
}
const runs = Number(take('--runs') ?? '1')
const run = (command, commandArgs, options = {}) => spawnSync(command, commandArgs, { stdio: 'inherit', ...options }).status ?? 1

if (build && run('pnpm', ['--filter', '@codeseam/lsp-mcp...', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
  console.error('[bench] building @codeseam/lsp-mcp failed: the MCP layer will run from sources')
}

let failed = false
if (runs > 1) {
  const out = take('--out')
  const noDocs = args.includes('--no-docs')
  const dir = mkdtempSync(join(tmpdir(), 'codeseam-bench-runs-'))
  const files = []
  for (let index = 1; index <= runs && !failed; index++) {
    const file = join(dir, `run-${index}.json`)
    console.error(`[bench] run ${index} of ${runs} → ${file}`)
    failed =
      run(
        process.execPath,
        ['--import', './register.mjs', 'src/main.ts', ...args.filter((a) => a !== '--no-docs'), '--no-docs', '--out', file],
        { cwd: 'bench' },
      ) !== 0
    files.push(file)
  }
  if (!failed) {
    const summaryArgs = [...files, ...(out === undefined ? [] : ['--out', resolve(out)]), ...(noDocs ? ['--no-docs'] : [])]
    failed = run(process.execPath, ['--import', './register.mjs', 'src/summarize.ts', ...summaryArgs], { cwd: 'bench' }) !== 0
  }
} else {
  failed = run(process.execPath, ['--import', './register.mjs', 'src/main.ts', ...args], { cwd: 'bench' }) !== 0
}

const packageBenches = readdirSync('packages')
  .map((name) => join('packages', name, 'bench'))
  .filter((dir) => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bench.ts')))
for (const dir of packageBenches) {
  failed ||= run('npx', ['vitest', 'bench', '--run', '--dir', 'bench'], { cwd: join(dir, '..') }) !== 0
}
process.exit(failed ? 1 : 0)
