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

/** Prints a failed command line's error the way every command does; returns its exit code (rethrows the unexpected). */
export function reportCliError(error: unknown, io: CliIo): number {
  const color = useColor(io.stderr, undefined, io.env)
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
