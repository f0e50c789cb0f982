// Runs a language server behind a pipe that counts the client's requests on the wire: each request's method is
// appended to the log file (argv[2]) before it is passed on, so a test reads the count once the answer is back.
// Usage: node counting-server.mjs LOG COMMAND [ARGS...]
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'

const [log, command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
let pending = Buffer.alloc(0)

process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk])
  for (;;) {
    const headerEnd = pending.indexOf('\r\n\r\n')
    if (headerEnd < 0) break
    const length = Number(/Content-Length: *(\d+)/i.exec(pending.subarray(0, headerEnd).toString('ascii'))?.[1])
    if (pending.length < headerEnd + 4 + length) break
    const message = JSON.parse(pending.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'))
    pending = pending.subarray(headerEnd + 4 + length)
    if (message.method !== undefined && message.id !== undefined) appendFileSync(log, `${message.method}\n`)
  }
  child.stdin.write(chunk)
})
process.stdin.on('end', () => child.stdin.end())
child.stdout.pipe(process.stdout)
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)))
process.on('SIGTERM', () => child.kill('SIGTERM'))
