import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync } from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'
import { pathExecutables, toolchainEnvironment } from '@codeseam/lsp-local'

import { serverInfo } from '../server-info.js'
import { otelKeyMaterial, type OtelFlags } from '../telemetry-settings.js'
import { checkConfigFile } from './config-file.js'

/**
 * Where the user's codeseam daemons listen, and which daemon a session may join.
 *
 * The folder is per user: `$CODESEAM_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/codeseam`, else
 * `<tmpdir>/codeseam-<uid>`. It is created 0700; one that exists must be a real folder owned by this user and
 * closed to group and others — in a shared temp folder another user could have created it first, and would
 * then see (or replace) every socket in it. Each daemon's socket is named by its key: a hash of what decides
 * which servers and interpreters it runs (user, codeseam version, the resolved configuration and the
 * environment). A session joins only the daemon with its own key; any difference means a separate daemon.
 */

/** The user's runtime folder for daemon sockets (not created). */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['CODESEAM_RUNTIME_DIR']
  if (explicit !== undefined && explicit !== '') return nodePath.resolve(explicit)
  const xdg = env['XDG_RUNTIME_DIR']
  if (xdg !== undefined && xdg !== '' && nodePath.isAbsolute(xdg)) return nodePath.join(xdg, 'codeseam')
  return nodePath.join(os.tmpdir(), `codeseam-${os.userInfo().uid}`)
}

/**
 * Creates the folder 0700 if missing; refuses one that is a symbolic link, not a folder, owned by another
 * user, or open to group or others (UNTRUSTED, saying which and what to do).
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const info = lstatSync(dir)
  const uid = os.userInfo().uid
  const refuse = (why: string) =>
    new LspError('UNTRUSTED', `refusing the daemon folder ${dir}: ${why}; remove it, or set CODESEAM_RUNTIME_DIR to a private folder`, {
      data: { dir },
    })
  if (info.isSymbolicLink()) throw refuse('it is a symbolic link')
  if (!info.isDirectory()) throw refuse('it is not a folder')
  if (info.uid !== uid) throw refuse(`it is owned by uid ${info.uid}, not by this user (uid ${uid})`)
  if ((info.mode & 0o077) !== 0) throw refuse(`its mode is ${(info.mode & 0o777).toString(8)}: group or others can use it (it must be 700)`)
  return dir
}

/**
 * Host environment variables that decide which servers, toolchains and interpreters run (on top of
 * `--env-allow`): PATH, HOME and NODE_OPTIONS, and every variable a language record names (GOPATH, GOFLAGS,
 * CARGO_HOME, RUSTUP_TOOLCHAIN, VIRTUAL_ENV, …).
 */
export const keyEnvironment: ReadonlyArray<string> = [...new Set(['PATH', 'HOME', 'NODE_OPTIONS', ...toolchainEnvironment()])]

/** What a daemon's identity is computed from. */
export interface DaemonKeyInputs {
  readonly configFile?: string
  readonly envAllow?: ReadonlyArray<string>
  readonly limits?: object
  /** `--otel-endpoint`, `--otel-include-paths`: with the `OTEL_*` variables, whether and where the daemon exports. */
  readonly otel?: OtelFlags
  /** `--no-index` (false): sessions answer from the live servers only (RFC 0034). */
  readonly index?: boolean
  readonly env?: NodeJS.ProcessEnv
}

/**
 * The daemon key: user, codeseam version, the config file (path and content), limits, `--env-allow`, the
 * values of every environment variable that decides what runs (PATH by where it resolves the records' executables),
 * and, when export is on, the OpenTelemetry export settings (flags and `OTEL_*` variables). Throws NOT_FOUND for a missing config file.
 */
export function daemonKey(inputs: DaemonKeyInputs): string {
  const env = inputs.env ?? process.env
  const file = checkConfigFile(inputs.configFile)
  const config = file === undefined ? undefined : `${file.path}\n${createHash('sha256').update(file.content).digest('hex')}`
  const allow = [...new Set(inputs.envAllow ?? [])].sort()
  const names = [...new Set([...keyEnvironment, ...allow])].sort()
  const identity = {
    uid: os.userInfo().uid,
    version: serverInfo.version,
    node: process.version,
    config,
    limits: inputs.limits ?? {},
    envAllow: allow,
    // PATH by what it resolves (the records' executables), not by its text: an `npx` launch adds folders that hold
    // none of them, and must share the daemon of a plain one. Asked for by name (`--env-allow PATH`), it counts whole.
    env: Object.fromEntries(names.filter((name) => name !== 'PATH' || allow.includes('PATH')).map((name) => [name, env[name] ?? null])),
    onPath: pathExecutables(env['PATH'] ?? ''),
  }
  // Only when on: a daemon without export keeps the key it had before export existed.
  const otel = otelKeyMaterial(inputs.otel ?? {}, env)
  if (otel !== undefined) Object.assign(identity, { otel })
  // Only when off: a daemon that uses stored indexes keeps the key it had before they existed.
  if (inputs.index === false) Object.assign(identity, { index: false })
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 20)
}

/** The socket of the daemon with this key in `dir`. */
export function socketPathFor(dir: string, key: string): string {
  return nodePath.join(dir, `daemon-${key}.sock`)
}
