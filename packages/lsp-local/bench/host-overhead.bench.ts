// Host overhead benchmark (issue 3, "Speed and memory"): in ONE run, on a generated ~300-file TypeScript
// project, the same native TypeScript 7 server answers a named query mix (definition, references, hover,
// documentSymbols) through a bare vscode-jsonrpc client and through @codeseam/lsp-local; it reports the
// median and p95 of each, the host's added latency (median of per-round differences, per query and over the
// whole mix) next to how far a second bare client differs from the first (the noise floor), plus cold start
// (spawn → first correct definition) and the RSS of the server process tree. Run: `npx vitest bench --run --dir bench` in packages/lsp-local
// (or `pnpm bench` at the root). Numbers are printed, never asserted.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, bench, describe } from 'vitest'
import { TextLines, pathToUri, type LspPosition } from '@codeseam/lsp'
import {
  ConfigurationRequest,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  ReferencesRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  RegistrationRequest,
  createProtocolConnection,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { treeRss } from '../src/server/process.js'
import { watchdogPid } from '../src/server/watchdog.js'

const FILES = 300
const ROUNDS = Number(process.env['CODESEAM_BENCH_ROUNDS'] ?? 200)

// ---- the generated project
const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-bench-')))
mkdirSync(nodePath.join(root, 'src'))
writeFileSync(
  nodePath.join(root, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true },
    include: ['src'],
  }),
)
const texts = new Map<string, string>()
for (let i = 0; i < FILES; i++) {
  const lines =
    i === 0
      ? [
          'export class Thing_0 {',
          '  value = 0',
          '  method(): number {',
          '    return this.value',
          '  }',
          '}',
          'export function fn_0(x: number): number {',
          '  return x',
          '}',
        ]
      : [
          `import { Thing_${i - 1}, fn_${i - 1} } from './mod_${i - 1}'`,
          '',
          `/** Thing number ${i}. */`,
          `export class Thing_${i} {`,
          `  value = ${i}`,
          '  method(): number {',
          `    return this.value + fn_${i - 1}(${i})`,
          '  }',
          '}',
          '',
          `export function fn_${i}(x: number): number {`,
          `  const previous = new Thing_${i - 1}()`,
          `  return x + previous.method() + fn_${i - 1}(x)`,
          '}',
        ]
  const path = nodePath.join(root, 'src', `mod_${i}.ts`)
  texts.set(path, lines.join('\n') + '\n')
  writeFileSync(path, lines.join('\n') + '\n')
}
const target = nodePath.join(root, 'src', 'mod_150.ts')
const at = (needle: string, offset = 0): LspPosition => {
  const text = texts.get(target) ?? ''
  const index = text.indexOf(needle)
  if (index < 0) throw new Error(`${needle} not in the target file`)
  return new TextLines(text).positionAt(index + offset)
}
const callSite = at('fn_149(x)')
const declaration = at('fn_150(x: number)')
const typeUse = at('Thing_149()')

// ---- bare client
const exe = (await builtinProfiles()).find((p) => p.id === 'typescript')?.command ?? ''
async function bareClient(): Promise<{ connection: ProtocolConnection; pid: number; kill: () => void }> {
  const child = spawn(exe, ['--lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] })
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
  connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => null))
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
  connection.onRequest(RegistrationRequest.type, () => undefined)
  connection.listen()
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToUri(root),
    workspaceFolders: [{ uri: pathToUri(root), name: 'bench' }],
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['markdown'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        definition: { linkSupport: true },
      },
    },
  })
  await connection.sendNotification(InitializedNotification.type, {})
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: pathToUri(target), languageId: 'typescript', version: 1, text: texts.get(target) ?? '' },
  })
  return { connection, pid: child.pid ?? 0, kill: () => child.kill('SIGKILL') }
}

// ---- cold starts (spawn → first correct definition), bare and host
const coldBareStart = performance.now()
const bare = await bareClient()
const firstBare = await bare.connection.sendRequest(DefinitionRequest.type, {
  textDocument: { uri: pathToUri(target) },
  position: callSite,
})
const coldBare = performance.now() - coldBareStart
if (!JSON.stringify(firstBare).includes('mod_149')) throw new Error('the bare client got a wrong first definition')

const coldHostStart = performance.now()
const host: LocalHost = await createLocalHost({ idleTtlMs: 0 })
const workspace = await host.openWorkspace(root, { trust: 'trusted' })
const provider = host.providers.find((p) => p.id === 'local:typescript')
if (provider === undefined) throw new Error('no typescript provider')
const signal = new AbortController().signal
const firstHost = await provider.query(
  { operation: 'definition', root: workspace.root, path: target, position: callSite, languageId: 'typescript' },
  signal,
)
const coldHost = performance.now() - coldHostStart
if (!firstHost.locations.some((l) => l.path.endsWith('mod_149.ts'))) throw new Error('the host got a wrong first definition')

// ---- the query mix. Three clients take turns query by query (the order rotates each round, so no client
// always follows another): the bare client, a SECOND bare client on its own server process (how far two
// identical bare setups differ: the noise floor), and the host. The added latency is the median of the
// per-round differences host − bare, which cancels load that drifts during the run.
const bare2 = await bareClient()
type Mix = { name: string; bare: () => Promise<unknown>; bare2: () => Promise<unknown>; host: () => Promise<unknown> }
const uri = pathToUri(target)
const protocol: Record<string, (connection: ProtocolConnection) => Promise<unknown>> = {
  definition: (c) => c.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: callSite }),
  references: (c) =>
    c.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: declaration, context: { includeDeclaration: true } }),
  hover: (c) => c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: typeUse }),
  documentSymbols: (c) => c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
}
const at150 = { root: workspace.root, path: target, languageId: 'typescript' }
const seam: Record<string, () => Promise<unknown>> = {
  definition: () => provider.query({ operation: 'definition', ...at150, position: callSite }, signal),
  references: () => provider.query({ operation: 'references', ...at150, position: declaration }, signal),
  hover: () => provider.query({ operation: 'hover', ...at150, position: typeUse }, signal),
  documentSymbols: () => provider.query({ operation: 'documentSymbols', ...at150 }, signal),
}
const mix: Mix[] = Object.entries(protocol).map(([name, send]) => ({
  name,
  bare: () => send(bare.connection),
  bare2: () => send(bare2.connection),
  host: seam[name] as () => Promise<unknown>,
}))
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}
const ms = (value: number) => `${value.toFixed(3)} ms`
const rows: string[] = []
const pooled = { added: [] as number[], noise: [] as number[] }
for (const entry of mix) {
  const clients = [entry.bare, entry.bare2, entry.host]
  for (let i = 0; i < 20; i++) for (const run of clients) await run()
  const times = [[], [], []] as [number[], number[], number[]]
  for (let i = 0; i < ROUNDS; i++) {
    for (let k = 0; k < 3; k++) {
      const which = (i + k) % 3
      const start = performance.now()
      await clients[which]?.()
      times[which]?.push(performance.now() - start)
    }
  }
  const [bareTimes, bare2Times, hostTimes] = times
  const added = hostTimes.map((t, i) => t - (bareTimes[i] ?? Number.NaN))
  const noise = bare2Times.map((t, i) => t - (bareTimes[i] ?? Number.NaN))
  pooled.added.push(...added)
  pooled.noise.push(...noise)
  rows.push(
    `${entry.name.padEnd(16)} bare median ${ms(quantile(bareTimes, 0.5))} p95 ${ms(quantile(bareTimes, 0.95))} | host median ${ms(quantile(hostTimes, 0.5))} p95 ${ms(quantile(hostTimes, 0.95))} | ` +
      `added median ${ms(quantile(added, 0.5))} (×${(quantile(hostTimes, 0.5) / quantile(bareTimes, 0.5)).toFixed(2)}) | second bare client vs bare, median ${ms(quantile(noise, 0.5))}`,
  )
}
rows.push(
  `query mix (all ${pooled.added.length} rounds pooled): host added median ${ms(quantile(pooled.added, 0.5))} (target ≤ 0.5 ms); second bare client vs bare ${ms(quantile(pooled.noise, 0.5))}`,
)
const [status] = await host.statusWithMemory()
const bareRss = await treeRss(bare.pid)
const watchdog = watchdogPid()
const watchdogRss = watchdog === undefined ? undefined : await treeRss(watchdog)
console.log(
  [
    '',
    `lsp-local host overhead — native TypeScript 7 server, ${FILES}-file generated project, ${ROUNDS} rounds per query, interleaved`,
    ...rows,
    `cold start (spawn → first correct definition): bare ${coldBare.toFixed(0)} ms, host ${coldHost.toFixed(0)} ms (host includes starting its watchdog and opening the workspace)`,
    `RSS of the server process tree: host ${((status?.rssBytes ?? 0) / 1e6).toFixed(0)} MB, bare ${((bareRss ?? 0) / 1e6).toFixed(0)} MB; plus the host's one shared watchdog ${((watchdogRss ?? 0) / 1e6).toFixed(0)} MB (per host process, not per server)`,
    `load average while measuring: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${(await import('node:os')).cpus().length} cores`,
    '',
  ].join('\n'),
)

afterAll(async () => {
  bare.kill()
  bare2.kill()
  await host.dispose()
  rmSync(root, { recursive: true, force: true })
})

// The same mix for vitest's own bench report (ops/s), on the warm servers.
describe('definition at a call site, warm', () => {
  bench('bare vscode-jsonrpc client', async () => void (await mix[0]?.bare()))
  bench('lsp-local host', async () => void (await mix[0]?.host()))
})
