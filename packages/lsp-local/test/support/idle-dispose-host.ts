// A plain host script for the idle-dispose test: one query starts the fault server, the idle timer reclaims
// it, then dispose() must settle on its own and the script print "disposed" and exit 0. Nothing else here
// keeps the event loop alive, which is exactly the case where an unsettled dispose lets node exit early.
// argv: <root> <fault server path>
import { createLocalHost } from '../../src/index.js'

const [root, faultServer] = process.argv.slice(2)
if (root === undefined || faultServer === undefined) throw new Error('usage: idle-dispose-host <root> <fault server>')
const host = await createLocalHost({
  builtins: false,
  idleTtlMs: 50,
  profiles: [
    {
      id: 'fault',
      command: process.execPath,
      args: [faultServer, '--scenario', 'normal'],
      extensions: { '.fault': 'fault' },
      operations: ['documentSymbols'],
    },
  ],
})
const workspace = await host.openWorkspace(root, { trust: 'trusted' })
const provider = host.providers[0]
if (provider === undefined) throw new Error('no provider')
let seenReady = false
const reclaimed = new Promise<void>((resolve) => {
  provider.onStatusChange?.((status) => {
    if (status.state === 'ready') seenReady = true
    else if (seenReady && status.state === 'idle') resolve()
  })
})
await provider.query(
  { operation: 'documentSymbols', root: workspace.root, path: `${workspace.root}/main.fault`, languageId: 'fault' },
  new AbortController().signal,
)
process.stdout.write('queried\n')
await reclaimed
process.stdout.write('reclaimed\n')
await host.dispose()
process.stdout.write('disposed\n')
