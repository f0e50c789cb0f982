// A host process for the watchdog test: starts one server through the real host, reports, then waits to
// be SIGKILLed. argv: <root> <fifo>. The profile's server starts a grandchild in its process group; both
// hold the FIFO open for writing and neither exits on its own (they ignore stdin EOF and SIGTERM).
import { createLocalHost } from '../../src/index.js'

const [root, fifo] = process.argv.slice(2)
if (root === undefined || fifo === undefined) throw new Error('usage: watchdog-host <root> <fifo>')
const stubborn = `
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const fifo = fs.openSync(${JSON.stringify(fifo)}, 'w');
const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30)"], {
  stdio: ['ignore', fifo, 'ignore'],
});
fs.writeSync(fifo, 'started ' + process.pid + ' ' + grandchild.pid + '\\n');
process.stdin.on('end', () => {});
process.on('SIGTERM', () => {});
setInterval(() => {}, 1 << 30);
`
const host = await createLocalHost({
  builtins: false,
  profiles: [{ id: 'stubborn', command: process.execPath, args: ['-e', stubborn], extensions: { '.stub': 'stub' } }],
})
const workspace = await host.openWorkspace(root, { trust: 'trusted' })
const provider = host.providers[0]
if (provider === undefined) throw new Error('no provider')
// The server never answers initialize: the query just starts it.
void provider
  .query(
    { operation: 'documentSymbols', root: workspace.root, path: `${workspace.root}/a.stub`, languageId: 'stub' },
    new AbortController().signal,
  )
  .catch(() => {})
process.stdout.write('host ready\n')
