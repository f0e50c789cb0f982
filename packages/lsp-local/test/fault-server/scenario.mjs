// What the fault server is told to do: command-line arguments → one FaultSpec.
//
//   node server.mjs --log FILE --scenario crash --method textDocument/definition --after 2
//   node server.mjs --spec '{"requestFaults":[{"on":"textDocument/hover","from":1,"action":"error"}]}'
//
// Parameters (--method, --after, --once, --delay-ms, --bytes, --header-only, --kind, --code, --message,
// --pending, --mode, --uri)
// apply to every --scenario given; --spec (JSON, merged last) combines faults with different parameters.

/**
 * What happens to a request a fault matches.
 * crash: exit with a stderr message; crash-partial: half a frame, then exit; kill: SIGKILL itself;
 * hang: never answer (cancel ignored); slow: answer after delayMs unless cancelled (then RequestCancelled);
 * error: a ResponseError; garbage: non-protocol text instead of the answer; oversized: a well-formed frame of
 * `bytes` bytes (or, with headerOnly, only its header and a few bytes); bad-json: a frame whose body is not
 * JSON; bad-header: a Content-Length that is not a number; stop: from now on answer nothing at all;
 * close-output: close stdout and keep running;
 * hold-then-crash: hold matching requests, exit when `pending` are held.
 * @typedef {'crash' | 'crash-partial' | 'kill' | 'hang' | 'slow' | 'error' | 'garbage' | 'oversized' | 'bad-json' | 'bad-header' | 'stop' | 'close-output' | 'hold-then-crash'} FaultAction
 */

/**
 * @typedef {object} RequestFault
 * @property {string} on request method, or '*' for any request but initialize and shutdown
 * @property {number} from the 1-based count of matching requests from which the fault applies
 * @property {boolean} once apply to request number `from` only
 * @property {FaultAction} action
 * @property {number} [delayMs] slow
 * @property {number} [code] error
 * @property {string} [message] error
 * @property {number} [bytes] oversized: Content-Length of the frame
 * @property {boolean} [headerOnly] oversized: send the header and a few bytes of body, then nothing
 * @property {number} [pending] hold-then-crash
 */

/**
 * @typedef {object} FaultSpec
 * @property {string[]} scenarios names given, for the log
 * @property {RequestFault[]} requestFaults
 * @property {number} initializeDelayMs delay before answering initialize
 * @property {boolean} garbageAtStartup print non-protocol text before anything else
 * @property {boolean} exitAfterInitialize crash as soon as `initialized` arrives (a crash loop)
 * @property {number} crashOnChange when > 0: exit (code 72) on this didChange notification (1-based), before applying
 *   it (a server that dies during a speculative check)
 * @property {boolean} endlessProgress begin work-done progress after initialize and never end it
 * @property {number} indexMs when > 0: index for this long after initialize, reporting work-done progress,
 *   and answer queries with empty results until done (what real servers do while loading a project)
 * @property {number} discoveryQuietMs when > 0: find the workspace's files on disk only in an analysis pass run once
 *   no request has come for this long, after asking for its configuration; until then answer over the open
 *   documents alone. Push no diagnostics; ask for a diagnostics refresh on applying the configuration and after
 *   every pass (pyright 1.1.414 with a client that pulls diagnostics)
 * @property {boolean} registerFormatting register document formatting dynamically after initialize
 * @property {boolean} latePullRegistration advertise no diagnostics, push none, and register pull diagnostics
 *   only when the first document opens (pyright registers them after initialized)
 * @property {boolean} clientRequests send workspace/configuration, workspaceFolders, workDoneProgress/create and applyEdit after initialize
 * @property {string[]} foreignUris URIs outside the root (or not `file:`) added to every location result
 * @property {'full' | 'incremental'} sync
 * @property {string[]} extensions file extensions the server analyses on disk under the root
 * @property {boolean} ignoreStdinClose keep running when the client closes stdin (a wedged server)
 * @property {boolean} ignoreSigterm survive SIGTERM (only SIGKILL ends it)
 * @property {boolean} firstProcessOnly request faults apply only in the first process logging to `log`, so
 *   a restarted server behaves (recovery can then be tested with the same method)
 * @property {number} maxLifetimeMs a backstop so a leaked fault server cannot outlive a test run for long
 * @property {string} [log] JSON Lines log path
 * @property {string} [lifeline] a unix socket the test harness listens on; closes when this process dies
 */

/** The URIs every location result gains under `foreign-uris`; `{root}` is the workspace root URI. */
export const defaultForeignUris = [
  'file:///etc/passwd',
  '{root}/../outside-the-root.fault',
  '{root}/..%2F..%2Fetc%2Fpasswd',
  'http://example.com/remote.fault',
  'untitled:Untitled-1',
]

/** @returns {FaultSpec} */
function emptySpec() {
  return {
    scenarios: [],
    requestFaults: [],
    initializeDelayMs: 0,
    garbageAtStartup: false,
    exitAfterInitialize: false,
    crashOnChange: 0,
    endlessProgress: false,
    indexMs: 0,
    discoveryQuietMs: 0,
    registerFormatting: false,
    latePullRegistration: false,
    clientRequests: false,
    foreignUris: [],
    sync: 'incremental',
    extensions: ['.fault'],
    ignoreStdinClose: false,
    ignoreSigterm: false,
    firstProcessOnly: false,
    maxLifetimeMs: 5 * 60_000,
  }
}

/**
 * @param {string[]} argv process.argv.slice(2)
 * @returns {FaultSpec}
 */
export function parseScenario(argv) {
  /** @type {Map<string, string[]>} */
  const flags = new Map()
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? ''
    if (!flag.startsWith('--')) throw new Error(`unexpected argument "${flag}"`)
    const name = flag.slice(2)
    const boolean = ['once', 'ignore-stdin-close', 'ignore-sigterm', 'first-process-only', 'header-only'].includes(name)
    const value = boolean ? 'true' : argv[++i]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    flags.set(name, [...(flags.get(name) ?? []), value])
  }
  const one = (/** @type {string} */ name) => flags.get(name)?.at(-1)
  const number = (/** @type {string} */ name, /** @type {number} */ fallback) => {
    const value = one(name)
    if (value === undefined) return fallback
    const parsed = Number(value)
    if (!Number.isFinite(parsed)) throw new Error(`--${name} must be a number, got "${value}"`)
    return parsed
  }
  const spec = emptySpec()
  const log = one('log')
  if (log !== undefined) spec.log = log
  const lifeline = one('lifeline')
  if (lifeline !== undefined) spec.lifeline = lifeline
  const from = number('after', 1)
  const once = one('once') === 'true'
  /** @param {string} fallbackMethod @param {FaultAction} action @param {Partial<RequestFault>} [extra] */
  const fault = (fallbackMethod, action, extra = {}) =>
    spec.requestFaults.push({ on: one('method') ?? fallbackMethod, from, once, action, ...extra })

  for (const scenario of flags.get('scenario') ?? []) {
    spec.scenarios.push(scenario)
    switch (scenario) {
      case 'normal':
        break
      case 'crash': {
        const mode = one('mode') ?? 'exit'
        if (!['exit', 'partial', 'kill'].includes(mode)) throw new Error(`--mode must be exit, partial or kill, got "${mode}"`)
        fault('*', mode === 'partial' ? 'crash-partial' : mode === 'kill' ? 'kill' : 'crash')
        break
      }
      case 'hang':
        fault('textDocument/definition', 'hang')
        break
      case 'slow':
        fault('textDocument/definition', 'slow', { delayMs: number('delay-ms', 60_000) })
        break
      case 'close-output':
        fault('textDocument/definition', 'close-output')
        // Its own connection closes with stdout: live on regardless, as the scenario promises.
        spec.ignoreStdinClose = true
        break
      case 'stop-answering':
        fault('*', 'stop')
        spec.ignoreStdinClose = true
        break
      case 'slow-initialize':
        spec.initializeDelayMs = number('delay-ms', 1_000)
        break
      case 'garbage':
        if (one('method') === undefined) spec.garbageAtStartup = true
        else fault('*', 'garbage')
        break
      case 'oversized':
        fault('textDocument/hover', 'oversized', { bytes: number('bytes', 4 * 1024 * 1024), headerOnly: one('header-only') === 'true' })
        break
      case 'bad-frame': {
        const kind = one('kind') ?? 'json'
        if (kind !== 'json' && kind !== 'header') throw new Error(`--kind must be json or header, got "${kind}"`)
        fault('textDocument/hover', kind === 'json' ? 'bad-json' : 'bad-header')
        break
      }
      case 'foreign-uris':
        spec.foreignUris.push(...(flags.get('uri') ?? defaultForeignUris))
        break
      case 'error':
        fault('textDocument/definition', 'error', {
          code: number('code', -32603),
          message: one('message') ?? 'fault-server: simulated internal error',
        })
        break
      case 'empty-while-indexing':
        spec.indexMs = number('index-ms', 1_500)
        break
      case 'deferred-discovery':
        spec.discoveryQuietMs = number('quiet-ms', 1_000)
        break
      case 'endless-progress':
        spec.endlessProgress = true
        break
      case 'dynamic-registration':
        spec.registerFormatting = true
        break
      case 'late-pull-registration':
        spec.latePullRegistration = true
        break
      case 'client-requests':
        spec.clientRequests = true
        break
      case 'crash-when-pending':
        fault('*', 'hold-then-crash', { pending: number('pending', 50) })
        break
      case 'crash-on-change':
        spec.crashOnChange = from
        break
      case 'crash-loop':
        spec.exitAfterInitialize = true
        break
      default:
        throw new Error(`unknown scenario "${scenario}"`)
    }
  }
  const sync = one('sync')
  if (sync === 'full' || sync === 'incremental') spec.sync = sync
  else if (sync !== undefined) throw new Error(`--sync must be full or incremental, got "${sync}"`)
  const extensions = one('extensions')
  if (extensions !== undefined) spec.extensions = extensions.split(',').map((e) => (e.startsWith('.') ? e : `.${e}`))
  if (one('ignore-stdin-close') === 'true') spec.ignoreStdinClose = true
  if (one('ignore-sigterm') === 'true') spec.ignoreSigterm = true
  if (one('first-process-only') === 'true') spec.firstProcessOnly = true
  spec.maxLifetimeMs = number('max-lifetime-ms', spec.maxLifetimeMs)

  const json = one('spec')
  if (json !== undefined) {
    /** @type {Partial<FaultSpec>} */
    const extra = JSON.parse(json)
    const { requestFaults = [], scenarios = [], foreignUris = [], ...rest } = extra
    Object.assign(spec, rest)
    spec.requestFaults.push(...requestFaults.map((f) => ({ ...f, from: f.from ?? 1, once: f.once ?? false })))
    spec.scenarios.push(...scenarios)
    spec.foreignUris.push(...foreignUris)
  }
  return spec
}
