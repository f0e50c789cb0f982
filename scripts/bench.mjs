// `pnpm bench [--large] [--rounds N] [--skip-cold] [--out FILE] [--no-docs]`: the cross-layer benchmark
// (bench/, see docs/performance.md), then any package's own narrow benchmarks (packages/*/bench).
//
// The MCP layer is measured on the built `codeseam` CLI, so the MCP package and its dependencies are built
// first; if that build fails the bench still runs and measures the MCP server from its sources.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const args = process.argv.slice(2)
const run = (command, commandArgs, options = {}) => spawnSync(command, commandArgs, { stdio: 'inherit', ...options }).status ?? 1

if (run('pnpm', ['--filter', '@codeseam/lsp-mcp...', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
  console.error('[bench] building @codeseam/lsp-mcp failed: the MCP layer will run from sources')
}

let failed = run(process.execPath, ['--import', './register.mjs', 'src/main.ts', ...args], { cwd: 'bench' }) !== 0

const packageBenches = readdirSync('packages')
  .map((name) => join('packages', name, 'bench'))
  .filter((dir) => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bench.ts')))
for (const dir of packageBenches) {
  failed ||= run('npx', ['vitest', 'bench', '--run', '--root', join(dir, '..'), '--dir', 'bench']) !== 0
}
process.exit(failed ? 1 : 0)
