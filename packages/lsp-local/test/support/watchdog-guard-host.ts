// A host process for the watchdog-groups test: puts process groups under the real watchdog as told on
// stdin, one command a line, and answers each line with `ok <watchdog pid> <program>` once done.
// `+PID` guards a group, `-PID` releases it, `?` only answers. argv: [node] makes it use the Node fallback.
import { createInterface } from 'node:readline'

import { guardProcessGroup, releaseProcessGroup, useNodeWatchdog, watchdogPid, watchdogProgram } from '../../src/server/watchdog.js'

if (process.argv[2] === 'node') useNodeWatchdog()
for await (const line of createInterface({ input: process.stdin })) {
  const pid = Number(line.slice(1))
  if (line.startsWith('+')) guardProcessGroup(pid)
  else if (line.startsWith('-')) releaseProcessGroup(pid)
  process.stdout.write(`ok ${watchdogPid() ?? 0} ${watchdogProgram() ?? 'none'}\n`)
}
