// The fault layer: sits between the library's reader and the connection, and takes over the requests a
// fault matches. Well-formed fault answers (errors, late answers) go through the library's writer; only
// the frames that are broken on purpose are written raw.
import { closeSync, writeSync } from 'node:fs'

// The package is CommonJS whose re-exports Node cannot name statically: import the namespace.
import protocol from 'vscode-languageserver-protocol/node'

const { ErrorCodes, InitializeRequest, LSPErrorCodes, ShutdownRequest } = protocol

/**
 * @typedef {import('./scenario.mjs').FaultSpec} FaultSpec
 * @typedef {import('./scenario.mjs').RequestFault} RequestFault
 * @typedef {import('./record.mjs').FlightRecorder} FlightRecorder
 * @typedef {import('./record.mjs').OutputQueue} OutputQueue
 * @typedef {import('vscode-languageserver-protocol/node').Message} Message
 * @typedef {{ id: number | string, method: string, params?: unknown }} IncomingRequest
 */

/** The library handles cancellation itself and does not export this method's descriptor. */
const cancelMethod = '$/cancelRequest'

/** Text a misbehaving server prints to stdout (a stray console.log), which is not a protocol header. */
export const garbageText = 'fault-server: console.log noise that is not a protocol header\n{"debug": true}\n'

/**
 * Ends the process the way a crashing server does: a last line on stderr, then exit. stderr is written
 * synchronously so the host can quote it.
 * @param {FlightRecorder} recorder
 * @param {number} code
 * @param {string} reason
 * @returns {never}
 */
export function die(recorder, code, reason) {
  recorder.record('exit', { code, reason })
  writeSync(2, `${reason}\n`)
  process.exit(code)
}

/**
 * @param {unknown} message
 * @returns {message is IncomingRequest}
 */
function isRequest(message) {
  return typeof message === 'object' && message !== null && 'method' in message && 'id' in message
}

/**
 * A response frame: `Content-Length` header and body, as bytes.
 * @param {number | string} id
 * @param {number} bytes the body's exact size; padded with JSON whitespace, which keeps it valid
 */
function oversizedFrame(id, bytes) {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":null`
  const body = Buffer.alloc(Math.max(bytes, head.length + 1), ' ')
  body.write(head, 0, 'utf8')
  body.write('}', body.length - 1, 'utf8')
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body])
}

/**
 * @param {object} options
 * @param {FaultSpec} options.spec
 * @param {FlightRecorder} options.recorder
 * @param {OutputQueue} options.output
 * @param {(method: string, params: unknown) => Promise<unknown>} options.answer the normal answer, for late replies
 * @returns {(message: Message) => boolean} true when the fault layer took the message over
 */
export function createFaultLayer({ spec, recorder, output, answer }) {
  const counts = spec.requestFaults.map(() => 0)
  /** @type {Map<number | string, NodeJS.Timeout>} */
  const lateAnswers = new Map()
  let held = 0
  let stopped = false

  /** @param {IncomingRequest} request @returns {(RequestFault & { count: number }) | undefined} */
  const faultFor = (request) => {
    if (request.method === InitializeRequest.method || request.method === ShutdownRequest.method) return undefined
    /** @type {(RequestFault & { count: number }) | undefined} */
    let chosen
    spec.requestFaults.forEach((fault, index) => {
      if (fault.on !== '*' && fault.on !== request.method) return
      const count = (counts[index] ?? 0) + 1
      counts[index] = count
      const applies = fault.once ? count === fault.from : count >= fault.from
      if (applies && chosen === undefined) chosen = { ...fault, count }
    })
    return chosen
  }

  /** @param {IncomingRequest} request @param {RequestFault & { count: number }} fault */
  const apply = (request, fault) => {
    const { id, method } = request
    recorder.record('fault', { action: fault.action, method, id, count: fault.count })
    const crashReason = `fault-server: simulated crash while serving ${method} (request #${fault.count}, pid ${process.pid})`
    switch (fault.action) {
      case 'crash':
        return die(recorder, 70, crashReason)
      case 'crash-partial': {
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result: [] }), 'utf8')
        const header = Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii')
        void output.raw(Buffer.concat([header, body.subarray(0, Math.floor(body.length / 2))])).then(() => die(recorder, 70, crashReason))
        return
      }
      case 'kill':
        recorder.record('exit', { code: null, reason: 'SIGKILL' })
        writeSync(2, `${crashReason} (SIGKILL)\n`)
        process.kill(process.pid, 'SIGKILL')
        return
      case 'hang':
        return
      case 'slow': {
        const timer = setTimeout(() => {
          lateAnswers.delete(id)
          void answer(method, request.params).then(
            (result) => output.message(/** @type {Message} */ ({ jsonrpc: '2.0', id, result })),
            (error) =>
              output.message(
                /** @type {Message} */ ({ jsonrpc: '2.0', id, error: { code: ErrorCodes.InternalError, message: String(error) } }),
              ),
          )
        }, fault.delayMs ?? 60_000)
        lateAnswers.set(id, timer)
        return
      }
      case 'error':
        void output.message(
          /** @type {Message} */ ({
            jsonrpc: '2.0',
            id,
            error: { code: fault.code ?? ErrorCodes.InternalError, message: fault.message ?? 'fault-server: simulated error' },
          }),
        )
        return
      case 'garbage':
        void output.raw(garbageText)
        return
      case 'oversized': {
        const frame = oversizedFrame(id, fault.bytes ?? 4 * 1024 * 1024)
        // headerOnly: the header promises the size, a few bytes follow, then silence (a reader that trusts
        // the header waits forever).
        void output.raw(fault.headerOnly === true ? frame.subarray(0, frame.indexOf('\r\n\r\n') + 4 + 16) : frame)
        return
      }
      case 'bad-json': {
        const body = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{not json at all}}`, 'utf8')
        void output.raw(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]))
        return
      }
      case 'bad-header':
        void output.raw('Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0"}')
        return
      case 'close-output':
        // The process lives on (until stdin closes) with its stdout closed: nothing it says arrives.
        stopped = true
        writeSync(2, `fault-server: closed stdout while serving ${method} (request #${fault.count}); still running\n`)
        closeSync(1)
        return
      case 'stop':
        stopped = true
        writeSync(2, `fault-server: wedged after request #${fault.count}; answering nothing from now on\n`)
        return
      case 'hold-then-crash':
        held += 1
        recorder.record('held', { id, held })
        if (held >= (fault.pending ?? 50)) die(recorder, 70, `${crashReason} with ${held} requests in flight`)
        return
    }
  }

  return (message) => {
    if (stopped) return true
    if (typeof message === 'object' && message !== null && 'method' in message && message.method === cancelMethod) {
      const id = /** @type {{ params?: { id?: number | string } }} */ (message).params?.id
      const timer = id === undefined ? undefined : lateAnswers.get(id)
      if (id === undefined || timer === undefined) return false
      clearTimeout(timer)
      lateAnswers.delete(id)
      recorder.record('fault', { action: 'slow-cancelled', id })
      void output.message(
        /** @type {Message} */ ({
          jsonrpc: '2.0',
          id,
          error: { code: LSPErrorCodes.RequestCancelled, message: 'cancelled by the client' },
        }),
      )
      return true
    }
    if (!isRequest(message)) return false
    const fault = faultFor(message)
    if (fault === undefined) return false
    apply(message, fault)
    return true
  }
}
