import { ExitNotification, ShutdownRequest, type MessageConnection } from 'vscode-languageserver-protocol/node'

import type { ServerProcess } from './process.js'

/** How long a stop waits for a SIGKILLed server to be gone. */
const killWaitMs = 10_000

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
      // SIGKILL cannot be refused, but tearing a large process down on a loaded machine takes a moment:
      // wait for it (the exit and then the group gone, bounded in ServerProcess) so that a stop or dispose
      // returns with nothing left running. Bounded all the same, for a process stuck in the kernel.
      await within(Math.max(graceMs, killWaitMs))
    }
  }
  connection.dispose()
}
