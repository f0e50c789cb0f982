// `NODE_OPTIONS=--import <this file>`: holds back the daemon a `codeseam mcp --daemon auto` relay starts, so a test
// decides when it comes up. In a `codeseam serve` process only (the relay passes its environment on):
// - $CODESEAM_DAEMON_GATE: writes its pid to `<gate>.waiting`, then waits (a file-system event, never a timer)
//   until the file `<gate>` exists before the daemon runs;
// - $CODESEAM_DAEMON_FAIL: exits with code 3 before the daemon runs (a daemon that cannot start).
import { existsSync, watch, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

if (process.argv[2] === 'serve') {
  if (process.env.CODESEAM_DAEMON_FAIL) {
    process.stderr.write('daemon-gate: this daemon fails to start, on purpose\n')
    process.exit(3)
  }
  const gate = process.env.CODESEAM_DAEMON_GATE
  if (gate) {
    await new Promise((resolve) => {
      const watcher = watch(nodePath.dirname(gate), () => {
        if (existsSync(gate)) {
          watcher.close()
          resolve(undefined)
        }
      })
      writeFileSync(`${gate}.waiting`, String(process.pid))
      if (existsSync(gate)) {
        watcher.close()
        resolve(undefined)
      }
    })
  }
}
