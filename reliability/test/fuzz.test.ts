// The schema fuzzer: over ten thousand generated calls across all 14 tools through the real stack (native
// TypeScript 7 server, lsp-local host, callTool exactly as the MCP server calls it), a new seed every run.
//
// - Schema-invalid calls (support/malformed.ts; ajv judges) must be INVALID_ARGUMENT naming the tool.
// - Schema-valid calls (support/generated-calls.ts: from the schema, and valid bases with generated values)
//   must end ok or with a typed LspError: a code of lspErrorCodes, never an untyped error turned into
//   SERVER_ERROR by callTool, never an exception out of callTool.
// - Mutating tools run with auto-approval: they may change the root (it is restored after each change), but
//   the sentinel outside the root is never read (atime) or written, and nothing outside the root changes.
//
// The seed is RELIABILITY_FUZZ_SEED when set, otherwise the clock's; it is in the test title and printed,
// and a failure names it with fast-check's counterexample, so any run can be replayed.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { decodeToolInput, toMcpTool, type AnyTool, type ToolOutcome } from '@codeseam/tool-lsp'
import { LspError, lspErrorCodes } from '@codeseam/lsp'

import { createFixture, listTree, sentinelText, treeHashes, type Fixture } from './support/fixture.js'
import { generatedCalls } from './support/generated-calls.js'
import { malformed } from './support/malformed.js'
import { finishSuite, ResultRecorder, tally } from './support/results.js'
import { type JsonSchema } from './support/schema-slots.js'
import { openStack, type Stack } from './support/stack.js'
import { mutating, validCalls } from './support/valid-calls.js'
import { schemaValidator } from './support/validator.js'

const recorder = new ResultRecorder('fuzz')

/** RELIABILITY_FUZZ_SEED replays a run; otherwise each run takes a new seed from the clock. */
function chooseSeed(): number {
  const fromEnv = process.env['RELIABILITY_FUZZ_SEED']
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv)
    if (!Number.isSafeInteger(seed)) throw new Error(`RELIABILITY_FUZZ_SEED must be an integer, got ${JSON.stringify(fromEnv)}`)
    return seed | 0
  }
  return Date.now() % 2 ** 31
}

const seed = chooseSeed()
const replay = `RELIABILITY_FUZZ_SEED=${seed} pnpm test`
/** Generated calls per tool: 14 × 740 = 10,360. About one in three is schema-invalid (cheap, never reaches a server). */
const callsPerTool = 740
const invalidShare = 1 / 3

let fixture: Fixture
let stack: Stack
/** The fixture as created: what a restore goes back to. */
let pristine: Record<string, Buffer>

beforeAll(async () => {
  fixture = await createFixture('reliability-fuzz-')
  // A short diagnostics wait (a write waits for the server's diagnostics of the new content at most this long),
  // and a short request deadline: on this three-file fixture every answer takes milliseconds, so a TIMEOUT is a
  // request the server dropped, and it costs 15 s instead of the default 60.
  stack = await openStack(fixture.root, {
    host: { requestTimeoutMs: 15_000 },
    mutations: { autoApprove: true, diagnosticsWaitMs: 300 },
  })
  pristine = Object.fromEntries(Object.keys(treeHashes(fixture.root)).map((p) => [p, readFileSync(nodePath.join(fixture.root, p))]))
}, 60_000)

afterAll(() => finishSuite(recorder, stack, fixture), 60_000)

/** Puts the root back as created: changed files rewritten, new files and folders removed. Returns whether anything had changed. */
function restoreRoot(): boolean {
  const now = treeHashes(fixture.root)
  let changed = false
  for (const relative of listTree(fixture.root).reverse()) {
    if (relative === 'links' || relative.startsWith('links/')) continue
    if (pristine[relative] !== undefined || Object.keys(pristine).some((p) => p.startsWith(`${relative}/`))) continue
    rmSync(nodePath.join(fixture.root, relative), { recursive: true, force: true })
    changed = true
  }
  for (const [relative, content] of Object.entries(pristine)) {
    if (now[relative] === undefined || !readFileSync(nodePath.join(fixture.root, relative)).equals(content)) {
      mkdirSync(nodePath.dirname(nodePath.join(fixture.root, relative)), { recursive: true })
      writeFileSync(nodePath.join(fixture.root, relative), content)
      changed = true
    }
  }
  return changed
}

/** Everything outside the root in the scratch folder: names, and the content of all but the sentinel (read = atime). */
function outsideState(): { files: string[]; sentinel: { atimeMs: number; mtimeMs: number; size: number } } {
  const files = listTree(fixture.scratch).filter((p) => !p.startsWith('workspace/') && p !== 'workspace')
  const { atimeMs, mtimeMs, size } = statSync(fixture.sentinel)
  return { files, sentinel: { atimeMs, mtimeMs, size } }
}

/**
 * The tool as callTool runs it, with its execute, render and summary watched: an error thrown there that is
 * not an LspError is what callTool would wrap into a SERVER_ERROR, and the fuzzer counts it as untyped.
 */
function watched(tool: AnyTool, untyped: (where: string, error: unknown) => void): AnyTool {
  const check = (where: string, error: unknown): never => {
    if (!(error instanceof LspError)) untyped(where, error)
    throw error
  }
  return {
    ...tool,
    execute: async (input: never, context: Parameters<AnyTool['execute']>[1]) => {
      try {
        return await tool.execute(input, context)
      } catch (error) {
        return check('execute', error)
      }
    },
    render: (result: never) => {
      try {
        return tool.render(result)
      } catch (error) {
        return check('render', error)
      }
    },
    summary: (result: never) => {
      try {
        return tool.summary(result)
      } catch (error) {
        return check('summary', error)
      }
    },
  } as AnyTool
}

describe('schema fuzzer: generated calls of every tool through the real stack', { timeout: 300_000 }, () => {
  it(`${(callsPerTool * 14).toLocaleString('en-US')} generated calls across 14 tools: invalid ones refused, valid ones ok or a typed error, nothing outside the root touched (seed ${seed})`, async () => {
    console.log(`fuzz: seed ${seed} (replay: ${replay})`)
    const started = performance.now()
    const outsideBefore = outsideState()
    const codes = new Set<string>(lspErrorCodes)
    const problems: string[] = []
    const perTool: Record<string, number> = {}
    const outcomes: string[] = []
    const strategies: string[] = []
    let invalidCalls = 0
    let validCallsSent = 0
    let restores = 0
    let outsideChanges = 0
    let serverMs = 0
    const msPerTool: Record<string, number> = {}
    /** Typed, so allowed; but reported: a request the server never answered. */
    const hangs: string[] = []
    expect([...stack.tools.keys()].sort(), 'the fuzzer covers every tool').toEqual(Object.keys(validCalls).sort())

    for (const [name, tool] of stack.tools) {
      const schema = toMcpTool(tool).inputSchema as JsonSchema
      const isValid = schemaValidator(schema)
      const base = validCalls[name] ?? {}
      const untyped: string[] = []
      const instrumented = watched(tool, (where, error) => {
        untyped.push(`untyped error in ${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      })
      const arbitrary = fc.oneof(
        { weight: Math.round(invalidShare * 100), arbitrary: malformed(base, schema) },
        { weight: Math.round((1 - invalidShare) * 100), arbitrary: generatedCalls(base, schema, fixture) },
      )
      const property = fc.asyncProperty(arbitrary, async ([strategy, args]) => {
        untyped.length = 0
        // A harness's null arguments mean "none" (decodeToolInput's rule), so null is judged as {}.
        const valid = isValid(args === null ? {} : args)
        const label = `${name} ${valid ? 'valid' : 'invalid'} (${strategy}) ${JSON.stringify(args)?.slice(0, 300)}`
        const callStarted = performance.now()
        let outcome: ToolOutcome
        try {
          outcome = await stack.callWith(instrumented, args)
        } catch (error) {
          const problem = `${label}: callTool threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`
          problems.push(problem)
          throw new Error(problem)
        }
        perTool[name] = (perTool[name] ?? 0) + 1
        strategies.push(strategy.replace(/ at .*/, ''))
        const code = outcome.ok ? 'ok' : outcome.error.code
        outcomes.push(`${valid ? 'valid' : 'invalid'}: ${code}`)
        let problem: string | undefined
        if (!valid) {
          invalidCalls++
          if (outcome.ok) problem = `${label}: a schema-invalid call ran`
          else if (outcome.error.code !== 'INVALID_ARGUMENT')
            problem = `${label}: ${code} instead of INVALID_ARGUMENT: ${outcome.error.message.slice(0, 200)}`
          else if (!outcome.error.message.includes(name))
            problem = `${label}: the error does not name the tool: ${outcome.error.message.slice(0, 200)}`
        } else {
          validCallsSent++
          serverMs += performance.now() - callStarted
          msPerTool[name] = Math.round((msPerTool[name] ?? 0) + performance.now() - callStarted)
          if (code === 'TIMEOUT') hangs.push(label)
          if (!outcome.ok && !codes.has(outcome.error.code)) problem = `${label}: unknown error code ${code}`
          else if (untyped.length > 0) problem = `${label}: ${untyped.join('; ').slice(0, 600)}`
          else if (!outcome.ok && outcome.error.code === 'SERVER_ERROR') {
            // An untyped throw while decoding would not pass through execute: decode again to see.
            try {
              decodeToolInput(tool, args)
            } catch (error) {
              if (!(error instanceof LspError)) problem = `${label}: untyped error while decoding: ${String(error)}`
            }
          }
        }
        const outside = outsideState()
        if (JSON.stringify(outside) !== JSON.stringify(outsideBefore)) {
          outsideChanges++
          problem ??= `${label}: outside the root changed (sentinel read or written, or a file appeared): ${JSON.stringify(outside)} (before ${JSON.stringify(outsideBefore)})`
        }
        if (restoreRoot()) {
          restores++
          if (!valid) problem ??= `${label}: a schema-invalid call changed the root`
          else if (!mutating.has(name)) problem ??= `${label}: a read-only tool changed the root`
        }
        if (problem !== undefined) {
          problems.push(problem)
          throw new Error(problem)
        }
      })
      try {
        await fc.assert(property, { seed, numRuns: callsPerTool })
      } catch (error) {
        throw new Error(
          `fuzz seed ${seed} (replay: ${replay}), tool ${name}: ${error instanceof Error ? error.message : String(error)}\nproblems seen (with shrinking):\n${problems.slice(0, 20).join('\n')}`,
          { cause: error },
        )
      }
    }
    const elapsedS = (performance.now() - started) / 1000
    const total = Object.values(perTool).reduce((a, b) => a + b, 0)
    console.log(
      `fuzz: ${total.toLocaleString('en-US')} calls across ${Object.keys(perTool).length} tools (${invalidCalls} schema-invalid, ${validCallsSent} schema-valid), seed ${seed} (replay: ${replay}), ${elapsedS.toFixed(1)} s`,
    )
    if (hangs.length > 0) console.warn(`fuzz seed ${seed}: ${hangs.length} calls the server never answered (TIMEOUT):\n${hangs.join('\n')}`)
    if (process.env['RELIABILITY_DEBUG']) console.log(tally(outcomes), msPerTool, `valid calls took ${Math.round(serverMs)} ms`)
    recorder.record(
      'schema fuzzer',
      `generated calls of every tool through the real stack, a new fast-check seed each run (this run: ${seed}; replay with RELIABILITY_FUZZ_SEED): every schema-invalid call is INVALID_ARGUMENT naming the tool; every schema-valid call is ok or a typed error (a code of lspErrorCodes, no untyped error, no exception out of callTool); mutations may change the root (restored after each) but nothing outside it is read or written; the stack still answers afterwards`,
      {
        seed,
        tools: Object.keys(perTool).length,
        'generated calls': total,
        ...Object.fromEntries(Object.entries(perTool).map(([tool, n]) => [`calls: ${tool}`, n])),
        'schema-invalid calls': invalidCalls,
        'schema-valid calls': validCallsSent,
        ...Object.fromEntries(Object.entries(tally(strategies)).map(([k, v]) => [`strategy: ${k}`, v])),
        ...Object.fromEntries(
          Object.entries(tally(outcomes))
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [`answer to ${k}`, v]),
        ),
        'root restored after a mutation': restores,
        'calls the server never answered (TIMEOUT, typed)': hangs.length,
        'problems (a wrong answer to an invalid call, an untyped error, an exception out of callTool, a write)': problems.length,
        'reads or writes outside the root': outsideChanges,
        seconds: Math.round(elapsedS),
      },
    )
    expect(problems, `fuzz seed ${seed} (replay: ${replay})`).toEqual([])
    const outsideAfter = outsideState()
    expect(outsideAfter, `fuzz seed ${seed}: the sentinel was read or written, or a file appeared outside the root`).toEqual(outsideBefore)
    expect(readFileSync(fixture.sentinel, 'utf8'), "the sentinel's content").toBe(sentinelText)
    expect(total).toBeGreaterThanOrEqual(10_000)
    // The stack still answers a valid call after all of it.
    const alive = await stack.call('code_symbols', validCalls['code_symbols'])
    expect(alive.ok, alive.ok ? '' : alive.error.message).toBe(true)
  })
})
