#!/usr/bin/env node
import { runCli } from './cli/main.js'

/** The `codeseam` executable: runs one command line and exits with its code. */

const interrupt = new AbortController()
let interrupted = false
const onSignal = () => {
  // First Ctrl-C cancels the running request (servers are then stopped cleanly); a second one forces exit.
  if (interrupted) process.exit(130)
  interrupted = true
  interrupt.abort()
}
const isMcp = process.argv[2] === 'mcp'
// `codeseam mcp` handles its own signals (it shuts the server down); one-shot commands cancel their request.
if (!isMcp) {
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  interrupt: interrupt.signal,
  // Set early: the exit code must not depend on how the language servers' shutdown ends.
  exitCode: (code) => {
    process.exitCode = code
  },
}).then(
  (code) => {
    process.exitCode = code
    // Language servers are stopped by now; a lingering handle (a stdin listener, a timer) must not keep us alive.
    process.stdout.write('', () => process.exit(code))
  },
  (error: unknown) => {
    process.stderr.write(`codeseam: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(70)
  },
)
