import type { InProcessServer } from './proxy-link.js'
import type { DaemonKeyInputs } from './runtime-dir.js'
import type { SessionParams } from './session-params.js'

/** How to start the daemon: `node <cli> serve …`. */
export interface DaemonCommand {
  readonly execPath: string
  readonly args: ReadonlyArray<string>
}

/** Options for `startMcpProxy` (proxy.ts). */
export interface McpProxyOptions {
  /** What this session asks the daemon for. */
  readonly session: SessionParams
  /** What decides which daemon: the config file, limits and `--env-allow` (passed to a daemon this proxy starts). */
  readonly daemon: DaemonKeyInputs & { readonly limitFlags?: ReadonlyArray<string> }
  /** Idle period after which a daemon this proxy starts exits (ms). */
  readonly idleTimeoutMs: number
  /** The CLI that runs `serve` (default: this process's own script). */
  readonly command?: DaemonCommand
  /**
   * Serves the session in this process, on the streams given, when the daemon cannot be reached or started (a
   * refused runtime folder, a failed start, a daemon of another version on the socket): `codeseam mcp` passes
   * the server `--daemon never` runs. Without it such a failure answers each request with its typed error. A
   * daemon that answers but refuses the session (its ceiling) is not such a failure: each call is refused.
   */
  readonly inProcess?: InProcessServer
  readonly stdin?: ClientInput
  readonly stdout?: NodeJS.WritableStream
  readonly handleSignals?: boolean
  readonly log?: (line: string) => void
}

/** The client's stdin, as the proxy watches it for its end. */
export type ClientInput = NodeJS.ReadableStream & { on(event: 'end' | 'close', listener: () => void): unknown }
