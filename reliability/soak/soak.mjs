#!/usr/bin/env node
// `pnpm soak`: a bounded soak of the real `codeseam mcp` relays and the shared daemon they start. Several MCP SDK
// clients make mixed read and edit calls while a chaos loop kills language servers and the daemon, changes files
// behind the server's back and swaps files for symlinks. At the end: every call answered or a typed error, every
// applied edit on disk exactly once (checked against the log of receipts), no file outside the root changed, no
// process of the run left. See reliability/README.md.
import { execFileSync } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'

import { Chaos } from './chaos.mjs'
import {
  allProcesses,
  commandLine,
  countMarkers,
  createGround,
  daemonsOf,
  descendants,
  functionsOf,
  MODULES,
  moduleName,
  processesOfRun,
  randomSource,
  rootTexts,
  SENTINEL_TOKEN,
  stillRunning,
  symbolsOf,
  treeState,
} from './ground.mjs'
import { recordResults, renderTable } from './report.mjs'

const here = nodePath.dirname(fileURLToPath(import.meta.url))
const cli = nodePath.resolve(here, '../../packages/lsp-mcp/dist/cli.js')

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    clients: { type: 'string', default: '4' },
    lanes: { type: 'string', default: '2' },
    seed: { type: 'string' },
    out: { type: 'string' },
    results: { type: 'string', default: nodePath.resolve(here, '../soak-results.md') },
    'no-record': { type: 'boolean', default: false },
    'keep-scratch': { type: 'boolean', default: false },
  },
})
const minutes = Number(flags.minutes)
const clientCount = Number(flags.clients)
const lanesPerClient = Number(flags.lanes)
const seed = flags.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(flags.seed)
if (!(minutes > 0) || !(clientCount >= 1) || !(lanesPerClient >= 1) || !Number.isInteger(seed)) {
  console.error('usage: pnpm soak [--minutes N] [--clients N] [--lanes N] [--seed S] [--out FILE] [--results FILE] [--no-record]')
  process.exit(2)
}
if (!existsSync(cli)) {
  console.error(`${cli} does not exist: run \`pnpm build\` (or \`CODESEAM_SKIP_DTS=1 npx tsup\` in packages/lsp-mcp) first`)
  process.exit(2)
}

const OUTSIDE_TEXT = new RegExp(`${SENTINEL_TOKEN}|outside_(?:fn|secret)_\\d+`)
/** Every call has this deadline; one that passes it is a hang. */
const CALL_DEADLINE_MS = 120_000
const random = randomSource(seed)
const startedAt = new Date()
const events = []
const log = (event) => events.push({ t: Date.now() - startedAt.getTime(), ...event })
console.log(
  `codeseam soak: seed ${seed}, ${minutes} min, ${clientCount} clients × ${lanesPerClient} lanes (replay: pnpm soak --seed ${seed} --minutes ${minutes} --clients ${clientCount})`,
)

const ground = await createGround()
const outsideBefore = treeState(ground.outside)
const env = { ...getDefaultEnvironment(), CODESEAM_RUNTIME_DIR: ground.runtime }
log({ type: 'ground', root: ground.root, outside: ground.outside, runtime: ground.runtime })

// ---- every process of the run, seen while it ran (pid + start time, so a reused pid is not blamed) ----
const seen = new Map()
function noteProcesses(relayPids) {
  const all = allProcesses()
  const daemons = daemonsOf(all, ground.runtime)
  const roots = [...relayPids, ...daemons.map((d) => d.pid)]
  for (const p of [
    ...all.filter((q) => roots.includes(q.pid)),
    ...descendants(all, roots),
    ...processesOfRun(all, ground.scratch, ground.runtime),
  ])
    if (!seen.has(`${p.pid}:${p.start}`))
      seen.set(`${p.pid}:${p.start}`, { pid: p.pid, start: p.start, command: commandLine(p.pid).slice(0, 200) })
}

// ---- clients ----
async function startClient(index) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--daemon', 'auto', '--allow-edits', '--root', ground.root, '--idle-timeout', '60'],
    cwd: ground.root,
    env,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')))
  const client = new Client({ name: `soak-client-${index}`, version: '1.0.0' }, { capabilities: {} })
  await client.connect(transport)
  return { index, client, transport, pid: transport.pid, stderr: () => stderr, counter: 0, markers: [] }
}
const started = await Promise.allSettled(Array.from({ length: clientCount }, (_, i) => startClient(i)))
const clients = started.filter((s) => s.status === 'fulfilled').map((s) => s.value)
if (clients.length < clientCount) {
  console.error(`codeseam soak: a client did not start: ${started.find((s) => s.status === 'rejected').reason}`)
  await Promise.all(clients.map((c) => c.client.close().catch(() => {})))
  for (const daemon of daemonsOf(allProcesses(), ground.runtime)) process.kill(daemon.pid, 'SIGTERM')
  process.exit(1)
}
noteProcesses(clients.map((c) => c.pid))

// ---- calls ----
const calls = []
function outcomeOf(result) {
  if (result.isError !== true) return { kind: 'ok' }
  const error = result._meta?.['codeseam/error']
  const text = result.content?.map((c) => (c.type === 'text' ? c.text : '')).join('\n') ?? ''
  if (typeof error?.code === 'string') return { kind: 'typed', code: error.code, message: error.message, receipt: error.data?.receipt }
  return { kind: 'untyped', message: text.slice(0, 300) }
}

async function call(client, lane, tool, args) {
  const entry = { type: 'call', client: client.index, lane, tool, args, started: Date.now() - startedAt.getTime() }
  calls.push(entry)
  try {
    const result = await client.client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_DEADLINE_MS })
    const outcome = outcomeOf(result)
    entry.outcome = outcome.kind
    if (outcome.kind === 'typed') entry.code = outcome.code
    if (outcome.kind !== 'ok') entry.message = outcome.message
    // The sentinel files' text and names exist only outside the root: no answer may show them (an error may echo
    // the name the call asked for, nothing else), and a call aimed at one of their symbols must not succeed.
    const asked = JSON.stringify(args).match(new RegExp(OUTSIDE_TEXT.source, 'g')) ?? []
    const shown = asked.reduce((text, name) => text.split(name).join(''), JSON.stringify(result))
    if (OUTSIDE_TEXT.test(shown) || (asked.length > 0 && outcome.kind === 'ok')) {
      entry.containment = 'answer carries the content of a file outside the root'
      const at = shown.search(OUTSIDE_TEXT)
      entry.excerpt = at < 0 ? shown.slice(0, 400) : shown.slice(Math.max(0, at - 300), at + 200)
    }
    entry.receipt = result.structuredContent?.receipt ?? outcome.receipt
    return { entry, result }
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      entry.outcome = 'hung'
    } else if (error instanceof McpError && typeof error.data?.code === 'string') {
      entry.outcome = 'typed'
      entry.code = `${error.data.code} (JSON-RPC error)`
    } else {
      entry.outcome = 'untyped'
    }
    entry.message = String(error?.message ?? error).slice(0, 300)
    return { entry }
  } finally {
    entry.ms = Date.now() - startedAt.getTime() - entry.started
    log(summaryOf(entry))
  }
}

function summaryOf(entry) {
  const { receipt, ...rest } = entry
  if (receipt === undefined) return rest
  return {
    ...rest,
    receipt: {
      transactionId: receipt.transactionId,
      status: receipt.status,
      files: receipt.files?.map((f) => `${f.path}:${f.change}:${f.saved}`),
    },
  }
}

// ---- reads ----
/**
 * Where a call aims: usually a module and one of its own symbols; sometimes (when the chaos has swapped a file
 * for a symlink) that path with a symbol of what the link points to, so calls go through the link: to another
 * module of the root (must work), or to a sentinel file outside it (must be refused).
 */
function aim(symbols) {
  const swapped = [...chaos.swapped.entries()]
  if (swapped.length > 0 && random.next() < 0.3) {
    const [path, { target }] = random.pick(swapped)
    const inside = /^\.\/mod(\d+)\.ts$/.exec(target)
    if (inside !== null) return { path, symbol: random.pick(symbols(Number(inside[1]))) }
    const k = /secret(\d+)\.ts$/.exec(target)?.[1] ?? '0'
    return { path, symbol: random.pick([`outside_fn_${k}`, `outside_secret_${k}`]) }
  }
  const i = random.int(MODULES)
  return { path: `src/${moduleName(i)}.ts`, symbol: random.pick(symbols(i)) }
}

function randomRead() {
  const { path, symbol } = aim(symbolsOf)
  const i = random.int(MODULES)
  const choices = [
    () => ['code_symbols', { path }],
    () => ['code_symbols', { query: random.pick(['base', 'combine', 'Box', 'soak', 'outside']) }],
    () => ['code_navigate', { target: { path, symbol }, kind: 'references' }],
    () => ['code_navigate', { target: { path: `src/${moduleName(i)}.ts`, symbol: random.pick(functionsOf(i)) }, kind: 'references' }],
    () => ['code_navigate', { target: { path, symbol }, kind: 'definition' }],
    () => ['code_hover', { target: { path, symbol } }],
    () => ['code_diagnostics', { path }],
    () => ['code_diagnostics', {}],
    () => ['code_status', {}],
  ]
  return random.pick(choices)()
}

// ---- edits and what they promise on disk ----
/** marker → 'one' | 'none' | 'doubt' (see `doubts`) */
const expected = new Map()
/** In-doubt edits (the daemon died before answering, or the deadline passed): exactly one side is on disk. */
const doubts = []
const edits = []
const pad = (n) => String(n).padStart(5, '0')

async function randomEdit(client, lane) {
  const fresh = () => `soak_c${client.index}_n${pad(++client.counter)}`
  const claim = () => (client.markers.length === 0 ? undefined : client.markers.splice(random.int(client.markers.length), 1)[0])
  const roll = random.next()
  let plan
  if (roll < 0.45 || client.markers.length === 0) {
    const { path, symbol } = aim(functionsOf)
    const name = fresh()
    plan = {
      tool: 'code_insert',
      args: {
        target: { path, symbol },
        position: random.pick(['before', 'after']),
        text: `export const ${name} = ${client.counter}`,
      },
      olds: [],
      news: [name],
    }
  } else if (roll < 0.68) {
    const old = claim()
    const name = fresh()
    plan = {
      tool: 'code_replace',
      args: { target: { path: old.file, symbol: old.name }, text: `export const ${name} = ${client.counter}` },
      olds: [old],
      news: [name],
    }
  } else if (roll < 0.9) {
    const old = claim()
    const name = fresh()
    plan = { tool: 'code_rename', args: { target: { path: old.file, symbol: old.name }, newName: name }, olds: [old], news: [name] }
  } else {
    const first = claim()
    const second = claim()
    const olds = second === undefined ? [first] : [first, second]
    const news = olds.map(() => fresh())
    plan = {
      tool: 'code_replace_batch',
      args: { edits: olds.map((old, k) => ({ target: { path: old.file, symbol: old.name }, text: `export const ${news[k]} = ${k}` })) },
      olds,
      news,
    }
  }
  for (const name of plan.news) expected.set(name, 'pending')
  const { entry } = await call(client, lane, plan.tool, plan.args)
  const edit = {
    client: client.index,
    tool: plan.tool,
    olds: plan.olds.map((o) => o.name),
    news: plan.news,
    outcome: entry.outcome,
    code: entry.code,
  }
  edits.push(edit)
  // In doubt: the call was cut off before the daemon could say (its death: UNAVAILABLE with no receipt), or no
  // answer came in time. Any other error carries a receipt or refused before the transaction: nothing written.
  const cutOff = (entry.code === 'UNAVAILABLE' || entry.code === 'UNAVAILABLE (JSON-RPC error)') && entry.receipt === undefined
  const inDoubt = entry.outcome === 'hung' || entry.outcome === 'untyped' || cutOff
  if (entry.outcome === 'ok' && entry.receipt?.status === 'applied') {
    edit.applied = true
    edit.transactionId = entry.receipt.transactionId
    const file = entry.receipt.files?.[0]?.path ?? plan.olds[0]?.file
    for (const old of plan.olds) expected.set(old.name, 'none')
    plan.news.forEach((name, k) => {
      expected.set(name, 'one')
      const where = plan.olds[k]?.file ?? file
      client.markers.push({ name, file: where })
    })
  } else if (inDoubt) {
    edit.inDoubt = true
    for (const name of [...plan.olds.map((o) => o.name), ...plan.news]) expected.set(name, 'doubt')
    doubts.push({ tool: plan.tool, olds: plan.olds.map((o) => o.name), news: plan.news, code: entry.code ?? entry.outcome })
  } else {
    // A typed error or a result that applied nothing: nothing may have changed.
    edit.status = entry.receipt?.status
    for (const name of plan.news) expected.set(name, 'none')
    for (const old of plan.olds) client.markers.push(old)
  }
}

async function lane(client, laneIndex, deadline) {
  while (Date.now() < deadline) {
    if (random.next() < 0.55) {
      const [tool, args] = randomRead()
      await call(client, laneIndex, tool, args)
    } else {
      await randomEdit(client, laneIndex)
    }
  }
}

// ---- the run ----
const deadline = startedAt.getTime() + minutes * 60_000
const chaos = new Chaos({ ground, random: randomSource(seed ^ 0x5eed), log })
let chaosStop = () => {}
const chaosStopped = new Promise((resolve) => (chaosStop = resolve))
const chaosLoop = (async () => {
  // Let the clients make their first calls (and the daemon start its server) before the first blow.
  let stopping = false
  void chaosStopped.then(() => (stopping = true))
  while (!stopping && Date.now() < deadline) {
    const wait = chaos.random.between(200, 2000)
    await Promise.race([new Promise((resolve) => setTimeout(resolve, wait)), chaosStopped])
    if (stopping || Date.now() >= deadline) break
    noteProcesses(clients.map((c) => c.pid))
    try {
      chaos.step()
    } catch (error) {
      chaos.record('chaos action failed', { error: String(error?.message ?? error) })
    }
  }
})()

const progress = setInterval(() => {
  const done = calls.filter((c) => c.outcome !== undefined).length
  console.log(
    `  ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s: ${done} calls answered, ${edits.filter((e) => e.applied).length} edits applied, ${Object.values(chaos.counts).reduce((a, b) => a + b, 0)} chaos actions`,
  )
}, 30_000)
await Promise.all(clients.flatMap((client) => Array.from({ length: lanesPerClient }, (_, l) => lane(client, l, deadline))))
chaosStop()
await chaosLoop
clearInterval(progress)
chaos.restoreAll()
const runMs = Date.now() - startedAt.getTime()
noteProcesses(clients.map((c) => c.pid))

// ---- verification on disk ----
const { texts, temps } = rootTexts(ground.root)
const counts = countMarkers(texts, [...expected.keys()])
const countOf = (name) => counts.get(name)?.count ?? 0
const problems = []
for (const [name, state] of expected) {
  const n = countOf(name)
  if (state === 'one' && n !== 1)
    problems.push({
      problem: n === 0 ? 'applied edit lost' : 'applied edit doubled',
      marker: name,
      count: n,
      files: counts.get(name)?.files,
    })
  if (state === 'none' && n !== 0)
    problems.push({
      problem: 'marker on disk that should not be (errored edit wrote, or a replaced marker survived)',
      marker: name,
      count: n,
      files: counts.get(name)?.files,
    })
  if (state === 'pending') problems.push({ problem: 'edit never settled', marker: name })
}
for (const doubt of doubts) {
  const oldsThere = doubt.olds.every((name) => countOf(name) === 1)
  const oldsGone = doubt.olds.every((name) => countOf(name) === 0)
  const newsThere = doubt.news.every((name) => countOf(name) === 1)
  const newsGone = doubt.news.every((name) => countOf(name) === 0)
  doubt.resolved = oldsThere && newsGone ? 'not applied' : oldsGone && newsThere ? 'applied' : 'inconsistent'
  if (doubt.resolved === 'inconsistent')
    problems.push({
      problem: 'in-doubt edit half applied or doubled',
      ...doubt,
      counts: Object.fromEntries([...doubt.olds, ...doubt.news].map((n) => [n, countOf(n)])),
    })
}
for (const [name, entry] of counts)
  if (entry.unexpected === true) problems.push({ problem: 'marker no call wrote', marker: name, count: entry.count, files: entry.files })
const outsideContentInRoot = texts.filter((t) => OUTSIDE_TEXT.test(t.text)).map((t) => t.relative)
for (const file of outsideContentInRoot) problems.push({ problem: 'content of a file outside the root copied into the root', file })

// An applied edit is verified when what it wrote is on disk exactly once, or a later applied edit replaced it.
let editsVerified = 0
for (const edit of edits.filter((e) => e.applied)) {
  const ok =
    edit.news.every((name) =>
      expected.get(name) === 'one' ? countOf(name) === 1 : expected.get(name) === 'none' ? countOf(name) === 0 : true,
    ) && edit.olds.every((name) => countOf(name) === 0)
  if (ok) editsVerified += 1
}

// ---- shutdown and leaks ----
await Promise.all(clients.map((c) => c.client.close().catch(() => {})))
for (const daemon of daemonsOf(allProcesses(), ground.runtime)) {
  try {
    process.kill(daemon.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}
noteProcesses([])
// The run's processes are not all our children (the daemon is detached), so there is no exit event to wait on:
// look in /proc every 50 ms, for at most 60 s.
const shutdownDeadline = Date.now() + 60_000
const ours = () => [...seen.values()].filter(stillRunning)
while (ours().length > 0 && Date.now() < shutdownDeadline) await new Promise((resolve) => setTimeout(resolve, 50))
const leaked = [
  ...ours(),
  ...processesOfRun(allProcesses(), ground.scratch, ground.runtime).filter((p) => !seen.has(`${p.pid}:${p.start}`)),
].map((p) => ({
  pid: p.pid,
  command: commandLine(p.pid).slice(0, 200),
}))
for (const p of leaked) {
  try {
    process.kill(p.pid, 'SIGKILL')
  } catch {
    // gone meanwhile
  }
}
const outsideAfter = treeState(ground.outside)
const outsideChanges = [...new Set([...Object.keys(outsideBefore), ...Object.keys(outsideAfter)])].filter(
  (k) => outsideBefore[k] !== outsideAfter[k],
)

// ---- figures ----
const answered = calls.filter((c) => c.outcome !== undefined)
const typedByCode = {}
for (const c of answered.filter((c) => c.outcome === 'typed')) typedByCode[c.code] = (typedByCode[c.code] ?? 0) + 1
const containmentBreaches = calls.filter((c) => c.containment !== undefined)
/** The code the run exercised: the commit, marked when the working tree differs from it. */
function codeVersion() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' }).trim()
    // The results file and docs change with every run; only other changes make the code differ from HEAD.
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!reliability/soak-results.md', ':!docs')
    return `${git('rev-parse', '--short', 'HEAD')}${changed === '' ? '' : '+changes'}`
  } catch {
    return 'unknown'
  }
}
const run = {
  finishedAt: new Date().toISOString(),
  code: codeVersion(),
  seed,
  minutes: Math.round((runMs / 60_000) * 10) / 10,
  clients: clientCount,
  lanes: lanesPerClient,
  calls: calls.length,
  ok: answered.filter((c) => c.outcome === 'ok').length,
  typedByCode,
  untyped: answered.filter((c) => c.outcome === 'untyped').length,
  hung: answered.filter((c) => c.outcome === 'hung').length,
  missing: calls.length - answered.length,
  editCalls: edits.length,
  editsApplied: edits.filter((e) => e.applied).length,
  editsVerified,
  editsInDoubt: doubts.length,
  inDoubtResolved: doubts.reduce((acc, d) => ({ ...acc, [d.resolved]: (acc[d.resolved] ?? 0) + 1 }), {}),
  markerProblems: problems.length,
  chaos: chaos.counts,
  containmentBreaches: containmentBreaches.length,
  outsideChanges: outsideChanges.length,
  writerTempFilesLeft: temps.length,
  leaked: leaked.length,
  processesSeen: seen.size,
}
const failures = []
if (run.untyped > 0) failures.push(`${run.untyped} untyped answers`)
if (run.hung > 0) failures.push(`${run.hung} calls passed the ${CALL_DEADLINE_MS / 1000} s deadline`)
if (run.missing > 0) failures.push(`${run.missing} calls without an answer`)
if (problems.length > 0) {
  // Name the cause the log shows most often: a write that replaced one of the chaos's symlinks with a regular
  // file of stale content, leaving the moved-aside original as an orphan that still holds the same markers.
  const replaced = Object.entries(chaos.counts)
    .filter(([kind]) => kind.includes('replaced by a regular file'))
    .reduce((sum, [, n]) => sum + n, 0)
  const viaOrphans = problems.filter((p) => (p.files ?? []).some((f) => /\.chaos-(aside|moved)-\d+$/.test(f))).length
  failures.push(
    `${problems.length} marker problems${replaced === 0 ? '' : ` (${viaOrphans} of them in files of the ${replaced} symlink(s) an edit replaced with a regular file)`}`,
  )
}
if (run.editsVerified !== run.editsApplied) failures.push(`${run.editsApplied - run.editsVerified} applied edits not verified on disk`)
if (run.containmentBreaches > 0) failures.push(`${run.containmentBreaches} answers carried outside content`)
if (run.outsideChanges > 0) failures.push(`${run.outsideChanges} changes outside the root`)
if (run.leaked > 0) failures.push(`${run.leaked} processes leaked`)
run.result = failures.length === 0 ? 'pass' : `FAIL: ${failures.join('; ')}`

console.log('')
console.log(renderTable([run]))
console.log('')
if (problems.length > 0) console.log('marker problems:', JSON.stringify(problems.slice(0, 20), null, 2))
if (containmentBreaches.length > 0)
  console.log('containment breaches:', JSON.stringify(containmentBreaches.slice(0, 5).map(summaryOf), null, 2))
for (const c of answered.filter((x) => x.outcome === 'untyped' || x.outcome === 'hung').slice(0, 10))
  console.log('untyped/hung:', JSON.stringify(summaryOf(c)))
if (leaked.length > 0) console.log('leaked:', JSON.stringify(leaked, null, 2))
if (outsideChanges.length > 0) console.log('outside changes:', outsideChanges)
console.log(`result: ${run.result}`)

if (flags.out !== undefined) {
  writeFileSync(
    flags.out,
    `${[...events, { type: 'problems', problems }, { type: 'doubts', doubts }, { type: 'processes seen', processes: [...seen.values()] }, { type: 'leaked', leaked }, { type: 'run', run }].map((e) => JSON.stringify(e)).join('\n')}\n`,
  )
  console.log(`log: ${flags.out}`)
}
if (!flags['no-record']) {
  recordResults(flags.results, run)
  console.log(`recorded in ${flags.results}`)
}
if (flags['keep-scratch'] || failures.length > 0) console.log(`scratch kept: ${ground.scratch}`)
else rmSync(ground.scratch, { recursive: true, force: true })
for (const c of clients)
  if (/error|Error/.test(c.stderr()) && failures.length > 0) console.log(`client ${c.index} stderr (tail):\n${c.stderr().slice(-1500)}`)
process.exit(failures.length === 0 ? 0 : 1)
