import { isLspError } from '@codeseam/lsp'

import { UsageError } from './arguments.js'
import { exitCodes } from './help.js'
import { note, useColor, type OutputStream } from './output.js'

/** The process pieces the CLI touches, so tests and embedders can supply their own. */
export interface CliIo {
  readonly stdout: OutputStream
  readonly stderr: OutputStream
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  /** Aborts the running command (Ctrl-C). */
  readonly interrupt?: AbortSignal
  /** Told the exit code as soon as the answer is printed, before the language servers are stopped. */
  readonly exitCode?: (code: number) => void
}

/**
 * Prints a failed command line's error the way every command does; returns its exit code (rethrows the unexpected).
 * Under `--json` a usage error is JSON on stdout too, shaped as a tool's failed outcome, so a script parses every
 * failure the same way.
 */
export function reportCliError(error: unknown, io: CliIo, argv: ReadonlyArray<string> = []): number {
  const color = useColor(io.stderr, undefined, io.env)
  if (error instanceof UsageError && argv.includes('--json')) {
    const failure = {
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: error.message,
        data: { usage: true, ...(error.command === undefined ? {} : { command: error.command }) },
      },
      text: `usage error: ${error.message}`,
      summary: 'usage error',
    }
    io.stdout.write(`${JSON.stringify(failure, null, 2)}\n`)
    return exitCodes.usage
  }
  if (error instanceof UsageError) {
    io.stderr.write(`codeseam: ${error.message}\n`)
    io.stderr.write(note(`Run \`codeseam ${error.command === undefined ? '' : `${error.command} `}--help\` for usage.`, color))
    return exitCodes.usage
  }
  if (isLspError(error)) {
    io.stderr.write(`codeseam: error ${error.code}: ${error.message}\n`)
    return exitCodes.failed
  }
  throw error
}
