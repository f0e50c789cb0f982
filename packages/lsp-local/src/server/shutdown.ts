import { ExitNotification, ShutdownRequest, type MessageConnection } from 'vscode-languageserver-protocol/node'

import type { ServerProcess } from './process.js'

/**
 * Ends a server: shutdown → exit (only when `polite`: the process is alive and answering) → SIGTERM →
 * SIGKILL, each step bounded by `graceMs`; then the connection is disposed.
 */
export async function shutdown(
  serverProcess: ServerProcess,
  connection: MessageConnection,
  graceMs: number,
  polite: boolean,
): Promise<void> {
  const exited = serverProcess.exited.then(() => true)
  const within = (ms: number) => Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())])
  if (polite) {
    try {
      await Promise.race([connection.sendRequest(ShutdownRequest.type), within(graceMs)])
      await connection.sendNotification(ExitNotification.type)
      // Some servers (the native TypeScript 7 server) leave only when their input ends.
      serverProcess.stdin.end()
    } catch {
      // a server that cannot shut down politely is terminated below
    }
  }
  if (!(await within(graceMs))) {
    serverProcess.signal('TERM')
    if (!(await within(graceMs))) {
      serverProcess.signal('KILL')
      await within(graceMs)
    }
  }
  connection.dispose()
}
