// The fault-injecting server of lsp-local under load, through the whole read path (tools → ctx.lsp →
// host → server): 50 mixed tool calls in flight when the server crashes, wedges or writes garbage. Every
// call must end in a correct answer or a typed error, never a wrong or empty answer; afterwards the same
// 50 calls must all be answered correctly by the restarted server, and no server process may survive.
import { mkdirSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ToolOutcome } from '@codeseam/tool-lsp'

import {
  FaultLog,
  faultServerPath,
  killLeftovers,
  Lifelines,
  scratchDir,
  withDeadline,
} from '../../packages/lsp-local/test/fault-server/harness.js'
import { libText, mainText } from '../../packages/lsp-local/test/fault-server/host-fixture.js'
import { finishSuite, ResultRecorder, tally } from './support/results.js'
import { openStack, type Stack } from './support/stack.js'

const launcher = fileURLToPath(new URL('./support/fault-once.mjs', import.meta.url))
const recorder = new ResultRecorder('faults-under-load')
let scratch: { path: string; dispose: () => Promise<void> }
let lifelines: Lifelines
let count = 0

beforeAll(async () => {
  scratch = await scratchDir('reliability-faults-')
  lifelines = await Lifelines.open(scratch.path)
})

afterAll(async () => {
  await lifelines?.close()
  await scratch?.dispose()
  await finishSuite(recorder)
}, 60_000)

/** Where `greet("world")` is called: line (1-based) and column of greet. */
function greetCall(): { line: number; column: number } {
  const lines = mainText.split('\n')
  const line = lines.findIndex((l) => l.includes('greet("world")'))
  return { line: line + 1, column: (lines[line] ?? '').indexOf('greet("world")') + 1 }
}

/** The mixed load: definition, references, hover and outline calls, cycled. */
function mixedCalls(countOfCalls: number): Array<{ name: string; args: Record<string, unknown>; check: (o: ToolOutcome) => boolean }> {
  const { line, column } = greetCall()
  const target = { path: 'main.fault', line, column, matchText: 'greet' }
  const structured = (o: ToolOutcome) => (o.ok ? o.structured : {})
  const kinds = [
    {
      name: 'code_navigate',
      args: { target, kind: 'definition' },
      check: (o: ToolOutcome) => JSON.stringify(structured(o)['files']).includes('"path":"lib.fault"'),
    },
    { name: 'code_navigate', args: { target, kind: 'references' }, check: (o: ToolOutcome) => structured(o)['totalFound'] === 4 },
    { name: 'code_hover', args: { target }, check: (o: ToolOutcome) => JSON.stringify(structured(o)).includes('declared in lib.fault') },
    {
      name: 'code_symbols',
      args: { path: 'lib.fault' },
      check: (o: ToolOutcome) => JSON.stringify(structured(o)['outline']).includes('"name":"greet"'),
    },
  ]
  return Array.from({ length: countOfCalls }, (_, i) => kinds[i % kinds.length]!)
}

/** Rounds of the same 50 calls allowed until the host has recovered on its own. */
const maxRecoveryRounds = 3

/** Codes a call may fail with while its server crashes, hangs or breaks the protocol. */
const faultCodes = ['SERVER_CRASHED', 'TIMEOUT', 'MALFORMED_RESPONSE', 'SERVER_ERROR']

interface FaultWorld {
  readonly stack: Stack
  readonly log: FaultLog
}

async function world(faults: ReadonlyArray<string>, config: { requestTimeoutMs: number; livenessGraceMs?: number }): Promise<FaultWorld> {
  const index = count++
  const root = nodePath.join(scratch.path, `workspace-${index}`)
  mkdirSync(root)
  writeFileSync(nodePath.join(root, 'main.fault'), mainText)
  writeFileSync(nodePath.join(root, 'lib.fault'), libText)
  const log = new FaultLog(nodePath.join(scratch.path, `log-${index}.jsonl`))
  const marker = nodePath.join(scratch.path, `first-life-${index}`)
  const stack = await openStack(root, {
    host: {
      builtins: false,
      ...config,
      profiles: [
        {
          id: 'fault',
          command: process.execPath,
          args: [launcher, marker, faultServerPath, '--log', log.path, '--lifeline', lifelines.path, '--faults', ...faults],
          extensions: { '.fault': 'fault' },
          operations: ['definition', 'references', 'hover', 'documentSymbols', 'workspaceSymbols', 'diagnostics'],
        },
      ],
    },
  })
  return { stack, log }
}

/** Sends every call at once; each settles to 'correct', 'WRONG …' or its error code. */
async function load(stack: Stack, calls: ReturnType<typeof mixedCalls>): Promise<string[]> {
  return withDeadline(
    Promise.all(
      calls.map(async (call) => {
        const outcome = await stack.call(call.name, call.args)
        if (!outcome.ok) return outcome.error.code
        return call.check(outcome) ? 'correct' : `WRONG ${call.name}: ${outcome.text.slice(0, 200)}`
      }),
    ),
    120_000,
    '50 in-flight tool calls to settle',
  )
}

async function finish(w: FaultWorld): Promise<void> {
  await w.stack.dispose()
  const pids = w.log.pids()
  // Lifeline events say when each server died; exited() also accepts a process that is simply gone.
  try {
    await Promise.all(pids.map((pid) => lifelines.exited(pid, 30_000)))
  } finally {
    // A server the host failed to stop must not outlive the suite (the failure above still stands).
    killLeftovers(pids)
  }
}

describe('fault-injecting server under load (50 mixed tool calls in flight)', { timeout: 180_000 }, () => {
  const scenarios = [
    {
      name: 'crash while 50 requests are in flight',
      guarantee:
        'every in-flight call fails with a typed error (the server is held until 50 requests are pending, then exits); the restarted server answers all 50 again correctly',
      faults: ['--scenario', 'crash-when-pending', '--pending', '50'],
      config: { requestTimeoutMs: 60_000 },
      // Every request is held until the crash: nothing can be answered before it.
      expectCorrectUnderFault: false,
    },
    {
      name: 'server wedges (stops answering anything) mid-load',
      guarantee: 'calls before the wedge are correct, the rest end in TIMEOUT or SERVER_CRASHED (liveness restart); then full recovery',
      faults: ['--scenario', 'stop-answering', '--after', '8'],
      config: { requestTimeoutMs: 6_000, livenessGraceMs: 3_000 },
      expectCorrectUnderFault: undefined,
    },
    {
      name: 'garbage frames instead of hover answers',
      guarantee: 'no call gets a wrong or empty answer; hovers fail with a typed error; then full recovery',
      faults: ['--scenario', 'garbage', '--method', 'textDocument/hover'],
      config: { requestTimeoutMs: 60_000 },
      expectCorrectUnderFault: undefined,
    },
  ] as const

  for (const scenario of scenarios) {
    it(`${scenario.name}: correct answer or typed error for each call, then full recovery`, async () => {
      const w = await world(scenario.faults, scenario.config)
      let failed = true
      try {
        const calls = mixedCalls(50)
        const underFault = await load(w.stack, calls)
        if (process.env['RELIABILITY_DEBUG']) console.log(scenario.name, tally(underFault))
        const unexpected = underFault.filter((r) => r !== 'correct' && !faultCodes.includes(r))
        expect(unexpected, 'answers that are neither correct nor a typed fault error').toEqual([])
        expect(underFault.filter((r) => r !== 'correct').length, 'the fault must hit some calls').toBeGreaterThan(0)
        if (scenario.expectCorrectUnderFault === false) expect(underFault).not.toContain('correct')

        // Recovery without intervention: the host notices the fault (a crash at once, a wedged server when
        // its liveness probe goes unanswered) and restarts the server on a later call. Bounded rounds; every
        // answer on the way must still be correct or a typed error.
        let recovered: string[] = []
        let rounds = 0
        while (rounds < maxRecoveryRounds) {
          rounds++
          recovered = await load(w.stack, calls)
          if (process.env['RELIABILITY_DEBUG']) console.log(scenario.name, 'round', rounds, tally(recovered), w.log.pids())
          expect(
            recovered.filter((r) => r !== 'correct' && !faultCodes.includes(r)),
            'answers while recovering',
          ).toEqual([])
          if (recovered.every((r) => r === 'correct')) break
        }
        expect(recovered, `after at most ${maxRecoveryRounds} rounds every call is answered correctly`).toEqual(calls.map(() => 'correct'))
        expect(w.log.pids().length, 'the host restarted the server').toBeGreaterThanOrEqual(2)
        recorder.record(scenario.name, scenario.guarantee, {
          'calls in flight': calls.length,
          ...Object.fromEntries(Object.entries(tally(underFault)).map(([k, v]) => [`under fault: ${k}`, v])),
          'rounds of 50 calls until all were correct again': rounds,
          'after recovery: correct': recovered.filter((r) => r === 'correct').length,
          'server processes started': w.log.pids().length,
        })
        failed = false
      } finally {
        // A failed assertion above is the news; a slow exit after it must not hide it.
        await finish(w).catch((error: unknown) => {
          if (!failed) throw error
        })
      }
    })
  }
})
