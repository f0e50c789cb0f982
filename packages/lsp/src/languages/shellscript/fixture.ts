import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** Shell (`fixtures/conformance-bash`): functions and a variable across two sourced scripts, an unclosed `if`. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-bash',
  main: 'scripts/deploy.sh',
  definition: {
    use: { file: 'scripts/deploy.sh', text: 'deploy_to "$TARGET_HOST"', at: 'deploy_to' },
    declaration: { file: 'scripts/deploy.sh', text: 'deploy_to() {', at: 'deploy_to' },
  },
  references: { declaration: { file: 'scripts/lib.sh', text: 'log_line() {', at: 'log_line' }, word: 'log_line' },
  hover: { at: { file: 'scripts/deploy.sh', text: 'set -euo pipefail', at: 'set' }, includes: ['set'] },
  unformatted: { file: 'scripts/deploy.sh', text: '  log_line "done"' },
  documentSymbols: {
    file: 'scripts/deploy.sh',
    symbols: [
      { name: 'TARGET_HOST', kind: 'variable' },
      { name: 'deploy_to', kind: 'function' },
    ],
  },
  typeError: { file: 'scripts/broken.sh', text: 'if [ -n "$1" ]; then' },
}
