import type { ProgressReport } from '../progress.js'
import type { OutputStream } from './output.js'

/**
 * The progress indicator of the CLI on stderr while a language server starts or indexes. On a terminal: one
 * line redrawn in place with a spinner, erased when the command finishes. Elsewhere (pipes, CI logs): each
 * message once, as a plain line, so logs show why a command took a while.
 */
export interface ProgressLine {
  report(report: ProgressReport): void
  /** Erases the line (terminal) and stops the spinner. */
  done(): void
}

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const spinIntervalMs = 100

/** A progress line on `stream`; `quiet` shows nothing. */
export function progressLine(stream: OutputStream, options: { readonly quiet: boolean }): ProgressLine {
  if (options.quiet) return { report() {}, done() {} }
  if (stream.isTTY !== true) {
    let last = ''
    return {
      report({ message }) {
        if (message === last) return
        last = message
        stream.write(`codeseam: ${message}\n`)
      },
      done() {},
    }
  }
  let message = ''
  let frame = 0
  let timer: NodeJS.Timeout | undefined
  const draw = () => {
    stream.write(`\r\x1b[2K${frames[frame % frames.length]} ${message}`)
    frame += 1
  }
  return {
    report(report) {
      message = report.message
      draw()
      // Redraws only animate the spinner; nothing waits on this timer, and unref lets the process exit.
      timer ??= setInterval(draw, spinIntervalMs).unref()
    },
    done() {
      if (timer !== undefined) clearInterval(timer)
      if (message !== '') stream.write('\r\x1b[2K')
      message = ''
    },
  }
}
