// `pnpm bench`: runs every package's benchmarks that exist. Until the benchmark issue lands, it says so
// instead of printing figures nobody measured.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const benches = readdirSync('packages')
  .map((name) => join('packages', name, 'bench'))
  .filter((dir) => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bench.ts')))
if (benches.length === 0) {
  console.log('No benchmarks exist yet: nothing was measured.')
  process.exit(0)
}
let failed = false
for (const dir of benches) {
  const result = spawnSync('npx', ['vitest', 'bench', '--run', '--root', join(dir, '..'), '--dir', 'bench'], { stdio: 'inherit' })
  failed ||= result.status !== 0
}
process.exit(failed ? 1 : 0)
