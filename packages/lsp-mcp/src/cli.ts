#!/usr/bin/env node
import type { CliIo } from './cli/io.js'
import { keepHeapSmall } from './heap.js'
import { reportCliError } from './cli/io.js'
import { exitCodes, mainHelp } from './cli/help.js'
import { runMcp } from './cli/mcp-command.js'
import { serverInfo } from './server-info.js'
import { loadToolManifest } from './tool-manifest.js'

/**
 * The `codeseam` executable: runs one command line and exits with its code. Its start path is short on
 * purpose: the main help and --version come from the build's tool manifest and package.json, `codeseam mcp`
 * answers `initialize` before the tools load, and only a one-shot command imports the command machinery
 * (the tools, effect, the language-server host).
 */

keepHeapSmall()

async function run(argv: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${mainHelp(await loadToolManifest())}\n`)
    return name === undefined ? exitCodes.usage : exitCodes.ok
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${serverInfo.version}\n`)
    return exitCodes.ok
  }
  if (name === 'mcp') {
    try {
      return await runMcp(rest, io)
    } catch (error) {
      return reportCliError(error, io)
    }
  }
  if (name === 'serve') {
    try {
      const { runServe } = await import('./cli/serve-command.js')
      return await runServe(rest, io)
    } catch (error) {
      return reportCliError(error, io)
    }
  }
  const { runCli } = await import('./cli/main.js')
  return runCli(argv, io)
}

const interrupt = new AbortController()
let interrupted = false
const onSignal = () => {
  // First Ctrl-C cancels the running request (servers are then stopped cleanly); a second one forces exit.
  if (interrupted) process.exit(130)
  interrupted = true
  interrupt.abort()
}
const isMcp = process.argv[2] === 'mcp' || process.argv[2] === 'serve'
// `codeseam mcp` and `serve` handle their own signals (it shuts the server down); one-shot commands cancel their request.
if (!isMcp) {
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

run(process.argv.slice(2), {
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
