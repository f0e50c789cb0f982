import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

import { serverInfo } from '../server-info.js'
import { otelArguments } from '../telemetry-settings.js'
import { health, type Health } from './daemon-health.js'
import type { McpProxyOptions } from './proxy-options.js'
import { ensurePrivateDir, runtimeDir, socketPathFor } from './runtime-dir.js'

/** The daemon's socket, starting the daemon when none answers there. */
export async function ensureDaemon(options: McpProxyOptions, key: string, log: (line: string) => void): Promise<string> {
  const dir = ensurePrivateDir(runtimeDir())
  const socket = socketPathFor(dir, key)
  const joined = (found: Health | undefined): boolean => {
    if (found === undefined) return false
    if (found.version !== serverInfo.version || found.key !== key) {
      throw new LspError(
        'CONFLICT',
        `the daemon on ${socket} is codeseam ${found.version} with key ${found.key}, not ${serverInfo.version} / ${key}`,
      )
    }
    return true
  }
  if (joined(await health(socket))) return socket
  const joinedWithin = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms
    for (;;) {
      if (joined(await health(socket))) return true
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const command = options.command ?? { execPath: process.execPath, args: [process.argv[1] ?? ''] }
  const args = [
    ...command.args,
    'serve',
    '--auto',
    '--socket',
    socket,
    '--idle-timeout',
    String(Math.round(options.idleTimeoutMs / 1000)),
    ...(options.daemon.configFile === undefined ? [] : ['--config', nodePath.resolve(options.daemon.configFile)]),
    ...(options.daemon.envAllow ?? []).flatMap((name) => ['--env-allow', name]),
    ...(options.daemon.limitFlags ?? []),
    ...(options.daemon.index === false ? ['--no-index'] : []),
    // The daemon exports (this relay does not): same settings, same key; the OTEL_* variables pass in its environment.
    ...otelArguments(options.daemon.otel ?? {}),
  ]
  const logFile = nodePath.join(dir, `daemon-${key}.log`)
  const logFd = openSync(logFile, 'a', 0o600)
  let child
  try {
    // Detached, in its own process group: the daemon outlives this proxy and its client.
    child = spawn(command.execPath, args, { detached: true, stdio: ['ignore', 'pipe', logFd], env: process.env, cwd: dir })
  } finally {
    closeSync(logFd)
  }
  const outcome = await new Promise<'ready' | number>((resolve, reject) => {
    let text = ''
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      text += chunk
      if (text.includes('\n')) resolve('ready')
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve(code ?? 1))
  })
  child.stdout!.destroy()
  child.unref()
  // Not ready: another daemon won the race to this socket (it may still be binding), or the start failed.
  if (outcome === 'ready' || (await joinedWithin(5_000))) {
    log(outcome === 'ready' ? `started the codeseam daemon (pid ${child.pid}, log ${logFile})` : 'joined a daemon another client started')
    return socket
  }
  throw new LspError('UNAVAILABLE', `the codeseam daemon did not start (exit code ${outcome}); see ${logFile}`, { data: { log: logFile } })
}
