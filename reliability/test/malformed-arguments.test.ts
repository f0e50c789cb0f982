// Malformed tool arguments generated from each tool's own JSON Schema with fast-check (fixed seed): wrong
// types, missing required fields, unknown fields, out-of-range numbers, values outside enums, and
// arbitrary JSON instead of an object. Every instance the schema rejects (checked with ajv) must be
// answered with INVALID_ARGUMENT naming the tool, never run, never crash, and never write.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { toMcpTool } from '@codeseam/tool-lsp'

import { createFixture, treeHashes, type Fixture } from './support/fixture.js'
import { finishSuite, ResultRecorder, tally } from './support/results.js'
import { malformed } from './support/malformed.js'
import { type JsonSchema } from './support/schema-slots.js'
import { openStack, type Stack } from './support/stack.js'
import { validCalls } from './support/valid-calls.js'
import { schemaValidator } from './support/validator.js'

const recorder = new ResultRecorder('malformed-arguments')
const seed = 20_261_129
const runsPerTool = 60
let fixture: Fixture
let stack: Stack

beforeAll(async () => {
  fixture = await createFixture('reliability-malformed-')
  stack = await openStack(fixture.root, { mutations: { autoApprove: true } })
}, 60_000)

afterAll(() => finishSuite(recorder, stack, fixture), 60_000)

describe('malformed tool arguments from the JSON Schemas (fast-check)', { timeout: 300_000 }, () => {
  it(`every schema-invalid call of every tool is refused with INVALID_ARGUMENT (${runsPerTool} generated calls per tool, seed ${seed})`, async () => {
    const before = treeHashes(fixture.root)
    const counts: Record<string, number> = {}
    const problems: string[] = []
    const strategies: string[] = []
    let rejectedBySchema = 0
    let acceptedBySchema = 0
    for (const [name, tool] of stack.tools) {
      const schema = toMcpTool(tool).inputSchema as JsonSchema
      const isValid = schemaValidator(schema)
      const base = validCalls[name] ?? {}
      await fc.assert(
        fc.asyncProperty(malformed(base, schema), async ([strategy, args]) => {
          // Only what the schema itself rejects counts: a random change can leave a valid call. A harness's
          // null arguments mean "none" (decodeToolInput's documented rule), so null is judged as {}.
          if (isValid(args === null ? {} : args)) {
            acceptedBySchema++
            return
          }
          rejectedBySchema++
          strategies.push(strategy.replace(/ at .*/, ''))
          const outcome = await stack.call(name, args)
          if (outcome.ok) problems.push(`${name} ran a schema-invalid call (${strategy}): ${JSON.stringify(args).slice(0, 160)}`)
          else if (outcome.error.code !== 'INVALID_ARGUMENT')
            problems.push(
              `${name} (${strategy}): ${outcome.error.code} instead of INVALID_ARGUMENT: ${outcome.error.message.slice(0, 160)}`,
            )
          else if (!outcome.error.message.includes(name))
            problems.push(`${name} (${strategy}): the error does not name the tool: ${outcome.error.message.slice(0, 160)}`)
          counts[name] = (counts[name] ?? 0) + 1
        }),
        { seed, numRuns: runsPerTool },
      )
    }
    recorder.record(
      'malformed arguments',
      'every call its JSON Schema rejects is answered with INVALID_ARGUMENT naming the tool; none runs, none crashes the stack, nothing is written',
      {
        tools: stack.tools.size,
        'generated calls': rejectedBySchema + acceptedBySchema,
        'schema-invalid calls sent': rejectedBySchema,
        'generated calls still valid (skipped)': acceptedBySchema,
        ...Object.fromEntries(Object.entries(tally(strategies)).map(([k, v]) => [`strategy: ${k}`, v])),
        'answered INVALID_ARGUMENT': Object.values(counts).reduce((a, b) => a + b, 0) - problems.length,
        problems: problems.length,
        ...Object.fromEntries(
          [...new Set(problems.map((p) => p.replace(/\).*/, ')')))].map((kind) => [
            `problem: ${kind}`,
            problems.filter((p) => p.startsWith(kind.slice(0, -1))).length,
          ]),
        ),
      },
    )
    expect(problems).toEqual([])
    expect(treeHashes(fixture.root), 'a malformed call changed a file').toEqual(before)
    // The stack still answers after hundreds of malformed calls.
    const alive = await stack.call('code_symbols', validCalls['code_symbols'])
    expect(alive.ok).toBe(true)
  })
})
