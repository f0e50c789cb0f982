// Starts the lsp-local fault server (packages/lsp-local/test/fault-server/server.mjs) with its fault
// arguments in its first life only: a restart by the host gets a healthy server, so a test can check
// full recovery after the fault.
//
//   node fault-once.mjs <marker-file> <server.mjs> <common args...> --faults <fault args...>
import { existsSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const [marker, server, ...rest] = process.argv.slice(2)
if (marker === undefined || server === undefined)
  throw new Error('usage: fault-once.mjs <marker> <server.mjs> [args] --faults [fault args]')
const split = rest.indexOf('--faults')
const common = split < 0 ? rest : rest.slice(0, split)
const faults = split < 0 ? [] : rest.slice(split + 1)
const firstLife = !existsSync(marker)
if (firstLife) writeFileSync(marker, String(process.pid))
process.argv = [process.argv[0] ?? 'node', server, ...common, ...(firstLife ? faults : [])]
await import(pathToFileURL(server).href)
