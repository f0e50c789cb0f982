// The fault server's flight recorder: a JSON Lines log of everything it received and did, appended
// synchronously so an entry is on disk before the next step (including a deliberate crash).
import { appendFileSync, existsSync, readFileSync } from 'node:fs'

/** Strings longer than this are cut in the log: document texts and oversized padding are not evidence. */
const maxLoggedString = 2000

/**
 * @param {unknown} value
 * @returns {unknown}
 */
function abbreviate(value) {
  if (typeof value === 'string') {
    return value.length > maxLoggedString ? `${value.slice(0, maxLoggedString)}…(${value.length} chars)` : value
  }
  if (Array.isArray(value)) return value.map(abbreviate)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, abbreviate(inner)]))
  }
  return value
}

/**
 * One log file shared by every process of a scenario (restarts append to it); entries carry the pid.
 * Without a path nothing is written, so the server also runs by hand.
 */
export class FlightRecorder {
  /** @param {string | undefined} path */
  constructor(path) {
    /** @private */
    this.path = path
  }

  /** Whether an earlier process already started with this log (this one is a restart). */
  isRestart() {
    if (this.path === undefined || !existsSync(this.path)) return false
    return readFileSync(this.path, 'utf8')
      .split('\n')
      .some((line) => line.includes('"event":"start"'))
  }

  /**
   * @param {string} event
   * @param {Record<string, unknown>} [fields]
   */
  record(event, fields = {}) {
    if (this.path === undefined) return
    const entry = { t: Date.now(), pid: process.pid, event, .../** @type {Record<string, unknown>} */ (abbreviate(fields)) }
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`)
  }
}

/**
 * @typedef {import('vscode-languageserver-protocol/node').MessageReader} MessageReader
 * @typedef {import('vscode-languageserver-protocol/node').MessageWriter} MessageWriter
 * @typedef {import('vscode-languageserver-protocol/node').Message} Message
 */

/**
 * Wraps the library's reader so every incoming message is logged and may be intercepted by the fault
 * layer before the connection sees it. `intercept` returns true when it took the message over.
 *
 * @param {MessageReader} inner
 * @param {FlightRecorder} recorder
 * @param {(message: Message) => boolean} intercept
 * @returns {MessageReader}
 */
export function recordingReader(inner, recorder, intercept) {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    dispose: () => inner.dispose(),
    listen(callback) {
      return inner.listen((message) => {
        const { jsonrpc: _jsonrpc, ...fields } = /** @type {Record<string, unknown>} */ (message)
        const kind = 'method' in fields ? ('id' in fields ? 'request' : 'notification') : 'response'
        recorder.record('received', { kind, ...fields })
        if (!intercept(message)) callback(message)
      })
    },
  }
}

/**
 * One ordered output queue for the library's writer and the deliberately broken raw writes, so a raw
 * write never lands between the header and body of a well-formed message.
 */
export class OutputQueue {
  /**
   * @param {MessageWriter} writer
   * @param {NodeJS.WritableStream} stdout
   */
  constructor(writer, stdout) {
    /** @private */
    this.writer = writer
    /** @private */
    this.stdout = stdout
    /** @private @type {Promise<void>} */
    this.tail = Promise.resolve()
  }

  /** @returns {MessageWriter} a writer for the connection that goes through this queue */
  asWriter() {
    const writer = this.writer
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      end: () => writer.end(),
      dispose: () => writer.dispose(),
      write: (message) => this.message(message),
    }
  }

  /**
   * A well-formed message, framed by the library.
   * @param {Message} message
   * @returns {Promise<void>}
   */
  message(message) {
    this.tail = this.tail.then(() => this.writer.write(message)).catch(() => {})
    return this.tail
  }

  /**
   * Bytes written as they are: only for frames that are broken on purpose.
   * @param {Buffer | string} bytes
   * @returns {Promise<void>}
   */
  raw(bytes) {
    this.tail = this.tail.then(() => new Promise((resolve) => this.stdout.write(bytes, () => resolve(undefined)))).catch(() => {})
    return this.tail
  }
}
