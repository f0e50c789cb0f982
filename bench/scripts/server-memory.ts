// Where the memory goes: the bare default server of a language against `codeseam mcp --daemon never` asked the same
// (the first FILES=20 files' outlines, references and workspace symbols of a class), peak RSS process by process.
//   node --import ./bench/register.mjs bench/scripts/server-memory.ts [ROOT]   (ROOT: an unpacked flask by default)
//   LANGUAGE=typescript TARGET_FILE=client/src/common/client.ts TARGET_SYMBOL=BaseLanguageClient … ROOT
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

import { FloorClient } from '../src/floor-client.js'
import { processTree, rssOf } from '../src/process-memory.js'
import { defaultProfile, plannedServerCommand } from '../src/server-commands.js'

const cli = fileURLToPath(new URL('../../packages/lsp-mcp/dist/cli.js', import.meta.url))
const corpora = fileURLToPath(new URL('../../../shared/corpora/', import.meta.url))
let root = process.argv[2]
if (root === undefined) {
  const dest = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-pymem-'))
  execFileSync('bash', [nodePath.join(corpora, 'unpack.sh'), dest])
  root = nodePath.join(dest, 'flask')
}
const language = process.env['LANGUAGE'] ?? 'python'
const extension = language === 'python' ? '*.py' : '*.ts'
const target = process.env['TARGET_FILE'] ?? 'src/flask/app.py'
const symbol = process.env['TARGET_SYMBOL'] ?? 'Flask'
const file = nodePath.join(root, target)
const line = readFileSync(file, 'utf8')
  .split('\n')
  .findIndex((l) => new RegExp(`\\b(class|interface|function) ${symbol}\\b`).test(l))
const character = readFileSync(file, 'utf8')
  .split('\n')
  [line]!.search(new RegExp(`\\b${symbol}\\b`))
const files = execFileSync('find', ['.', '-name', extension, '-not', '-path', '*/node_modules/*'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean)
  .map((f) => f.slice(2))
  .sort()
  .slice(0, Number(process.env['FILES'] ?? 20))
const MB = (n: number) => `${Math.round(n / 2 ** 20)} MB`

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 140)
  } catch {
    return '?'
  }
}
/** Peak RSS per process of the tree under `pid` while `work` runs, sampled every 100 ms. */
async function peaks(pid: number, work: () => Promise<unknown>): Promise<Map<number, { command: string; peak: number }>> {
  const seen = new Map<number, { command: string; peak: number }>()
  let peakTotal = 0
  const sample = () => {
    let total = 0
    for (const p of processTree(pid)) {
      const rss = rssOf(p)
      total += rss
      const entry = seen.get(p) ?? { command: commandOf(p), peak: 0 }
      entry.peak = Math.max(entry.peak, rss)
      seen.set(p, entry)
    }
    peakTotal = Math.max(peakTotal, total)
  }
  const timer = setInterval(sample, 100)
  try {
    await work()
  } finally {
    clearInterval(timer)
    sample()
  }
  seen.set(-1, { command: 'TOTAL (peak of the sums)', peak: peakTotal })
  return seen
}
const show = (title: string, rows: Map<number, { command: string; peak: number }>) => {
  console.log(`\n## ${title}`)
  for (const [pid, { command, peak }] of rows) console.log(`${String(pid).padStart(8)} ${MB(peak).padStart(8)}  ${command}`)
}

const profile = await defaultProfile(language)
const { command } = plannedServerCommand(profile, root, 'untrusted')
const bare = await FloorClient.start(command, root)
show(
  `bare ${profile.id}, root only, the files opened, their outlines, references and workspace symbols of ${symbol}`,
  await peaks(bare.process.pid!, async () => {
    for (const f of files) await bare.ensureOpen(nodePath.join(root, f))
    for (const f of files) await bare.documentSymbols(nodePath.join(root, f))
    const refs = await bare.references(file, { line, character })
    console.log(`bare references: ${refs?.length}`)
    console.log(`bare workspace symbols: ${(await bare.workspaceSymbols(symbol))?.length}`)
  }),
)
await bare.stop()

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, 'mcp', '--daemon', 'never', '--root', root],
  cwd: root,
  stderr: 'ignore',
})
const client = new Client({ name: 'pymem', version: '0.0.0' })
await client.connect(transport)
show(
  `codeseam mcp --daemon never, the same files' outlines, references and workspace symbols of ${symbol}`,
  await peaks(transport.pid!, async () => {
    const say = (result: unknown) =>
      console.log(
        String((result as { content: Array<{ text: string }> }).content[0]?.text)
          .split('\n')
          .slice(0, 2)
          .join(' | '),
      )
    for (const f of files) await client.callTool({ name: 'code_symbols', arguments: { path: f } })
    say(await client.callTool({ name: 'code_navigate', arguments: { target: { path: target, symbol }, kind: 'references', limit: 1 } }))
    say(await client.callTool({ name: 'code_symbols', arguments: { query: symbol } }))
    say(await client.callTool({ name: 'code_status', arguments: {} }))
  }),
)
await client.close()
