// `pnpm bench [--large] [--build] [--rounds N] [--skip-cold] [--out FILE] [--no-docs]`: the cross-layer
// benchmark (bench/, see docs/performance.md), then any package's own narrow benchmarks (packages/*/bench).
//
// Everything runs from TypeScript sources, so a fresh clone needs no build. The MCP layer uses the built
// `codeseam` CLI when packages/lsp-mcp/dist is at least as new as its sources; `--build` builds it first
// (about four minutes with type declarations on a busy 2-core machine, hence not the default).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const build = process.argv.includes('--build')
const args = process.argv.slice(2).filter((arg) => arg !== '--build')
const run = (command, commandArgs, options = {}) => spawnSync(command, commandArgs, { stdio: 'inherit', ...options }).status ?? 1

if (build && run('pnpm', ['--filter', '@codeseam/lsp-mcp...', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
  console.error('[bench] building @codeseam/lsp-mcp failed: the MCP layer will run from sources')
}

let failed = run(process.execPath, ['--import', './register.mjs', 'src/main.ts', ...args], { cwd: 'bench' }) !== 0

const packageBenches = readdirSync('packages')
  .map((name) => join('packages', name, 'bench'))
  .filter((dir) => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bench.ts')))
for (const dir of packageBenches) {
  failed ||= run('npx', ['vitest', 'bench', '--run', '--dir', 'bench'], { cwd: join(dir, '..') }) !== 0
}
process.exit(failed ? 1 : 0)
