// Path-containment attacks through every tool, read and mutating, against a real native TypeScript server:
// every attack path in every path parameter is refused with a typed error, nothing outside the root is read
// (the sentinel's access time stays put) or written (no new files, sentinel unchanged), and nothing inside
// the root changes either (mutations run with auto-approval, so a slip would write).
import { readFileSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { toMcpTool } from '@codeseam/tool-lsp'

import { createFixture, fileState, listTree, sentinelText, treeHashes, type Fixture } from './support/fixture.js'
import { finishSuite, ResultRecorder, tally } from './support/results.js'
import { pathSlots, slotName, withSlot, type JsonSchema, type Slot } from './support/schema-slots.js'
import { mutating, validCalls } from './support/valid-calls.js'
import { openStack, type Stack } from './support/stack.js'

const recorder = new ResultRecorder('containment')
let fixture: Fixture
let stack: Stack

/** Attack paths, by family. `{outside}` is the sentinel folder next to the root, `{root}` the root. */
const attackFamilies: Record<string, ReadonlyArray<string>> = {
  traversal: ['../outside/secret.ts', 'src/../../outside/secret.ts', './../outside/secret.ts', `${'../'.repeat(12)}etc/passwd`],
  'percent-encoded traversal': [
    '..%2Foutside%2Fsecret.ts',
    '%2e%2e/outside/secret.ts',
    'src/%2E%2E/%2E%2E/outside/secret.ts',
    '..%5Coutside%5Csecret.ts',
  ],
  'symlink escape': ['links/escape.ts', 'links/outside-dir/secret.ts'],
  'absolute paths': ['{outside}/secret.ts', '/etc/passwd', '{root}/../outside/secret.ts'],
  'non-file URIs': [
    'file://{outside}/secret.ts',
    'file:///etc/passwd',
    'http://example.com/src/a.ts',
    'untitled:Untitled-1',
    'vscode-remote://host/etc/passwd',
    'data:text/plain,secret',
  ],
  'Windows-style paths': [
    'C:\\Windows\\win.ini',
    '..\\outside\\secret.ts',
    '\\\\server\\share\\secret.ts',
    'C:/outside/secret.ts',
    'src\\..\\..\\outside\\secret.ts',
  ],
  'NUL bytes': ['src/a.ts\u0000../../outside/secret.ts', 'src/a\u0000.ts', '\u0000'],
  // Longer than PATH_MAX (4096) with NAME_MAX-sized segments, a name over NAME_MAX, deep traversal.
  'very long paths': [
    `${`${'abcdefghij'.repeat(25)}/`.repeat(17)}a.ts`,
    `${'x'.repeat(300)}.ts`,
    `src/${'../'.repeat(2_000)}outside/secret.ts`,
  ],
}

/**
 * Parameters that a call may ignore: listing code actions (no `apply`) writes nothing and checks no hashes,
 * so it answers with an outside path in expectedHashes unread. The sentinel checks still hold for these.
 */
const ignoredSlots = new Set(['code_actions expectedHashes[0].path'])

const refusalCodes = ['OUTSIDE_WORKSPACE', 'INVALID_ARGUMENT', 'NOT_FOUND']

function sentinelTimes(): { atimeMs: number; mtimeMs: number } {
  const { atimeMs, mtimeMs } = statSync(fixture.sentinel)
  return { atimeMs, mtimeMs }
}

function expand(path: string): string {
  return path.replaceAll('{outside}', fixture.outside).replaceAll('{root}', fixture.root)
}

/** Sets an attack into a slot; an expectedHashes entry also needs a well-formed hash. */
function attackArgs(base: Record<string, unknown>, slot: Slot, attack: string): Record<string, unknown> {
  if (slot[0] === 'expectedHashes') return withSlot(base, ['expectedHashes'], [{ path: attack, hash: '0'.repeat(64) }])
  return withSlot(base, slot, attack)
}

beforeAll(async () => {
  fixture = await createFixture('reliability-containment-')
  stack = await openStack(fixture.root, { mutations: { autoApprove: true } })
}, 60_000)

afterAll(() => finishSuite(recorder, stack, fixture), 60_000)

describe('path containment through every tool', { timeout: 300_000 }, () => {
  it("the fixture can show a read outside the root: reading a file with the sentinel's times moves its atime", async () => {
    const canary = nodePath.join(fixture.outside, 'canary.ts')
    const { writeFileSync, utimesSync } = await import('node:fs')
    writeFileSync(canary, 'canary\n')
    const now = Date.now() / 1000
    utimesSync(canary, now - 3 * 86_400, now - 2 * 86_400)
    const before = fileState(canary).atimeMs
    readFileSync(canary)
    expect(fileState(canary).atimeMs).toBeGreaterThan(before)
  })

  it('every tool answers its valid call (the refusals below are about the paths, not the calls)', async () => {
    const failures: string[] = []
    for (const [name, args] of Object.entries(validCalls)) {
      const outcome = await stack.call(name, mutating.has(name) ? { ...args, dryRun: true } : args)
      if (!outcome.ok && outcome.error.code !== 'NOT_FOUND') failures.push(`${name}: ${outcome.error.code} ${outcome.error.message}`)
    }
    expect(failures).toEqual([])
    expect([...stack.tools.keys()].sort(), 'a valid call is listed for every tool').toEqual(Object.keys(validCalls).sort())
  })

  it('every attack in every path parameter of every tool is refused; nothing outside the root is read or written', async () => {
    const outsideBefore = listTree(fixture.scratch).filter((p) => !p.startsWith('workspace/'))
    // stat only: reading the sentinel here would move its atime (the check below must see only others' reads).
    const sentinelBefore = sentinelTimes()
    const rootBefore = treeHashes(fixture.root)
    const outcomes: string[] = []
    const leaks: string[] = []
    const perFamily: Record<string, number> = {}
    let ignored = 0
    const slotsPerTool: Record<string, number> = {}
    for (const [name, tool] of stack.tools) {
      const toolStarted = performance.now()
      const slots = pathSlots(toMcpTool(tool).inputSchema as JsonSchema)
      slotsPerTool[name] = slots.length
      for (const slot of slots) {
        for (const [family, attacks] of Object.entries(attackFamilies)) {
          for (const raw of attacks) {
            const attack = expand(raw)
            const outcome = await stack.call(name, attackArgs(validCalls[name]!, slot, attack))
            perFamily[family] = (perFamily[family] ?? 0) + 1
            const label = `${name} ${slotName(slot)} ← ${JSON.stringify(attack.slice(0, 80))}`
            if (outcome.ok && ignoredSlots.has(`${name} ${slotName(slot)}`)) {
              ignored++
              continue
            }
            if (outcome.ok) leaks.push(`${label}: answered ok: ${outcome.summary}`)
            else if (!refusalCodes.includes(outcome.error.code))
              leaks.push(`${label}: ${outcome.error.code} ${outcome.error.message.slice(0, 160)}`)
            outcomes.push(outcome.ok ? 'ok' : outcome.error.code)
          }
        }
      }
      if (process.env['RELIABILITY_DEBUG']) console.log(name, Math.round(performance.now() - toolStarted), 'ms')
    }
    const toolsWithPaths = Object.values(slotsPerTool).filter((n) => n > 0).length
    recorder.record(
      'path-containment attacks',
      'every attack path in every path parameter of every tool is refused with a typed error; the sentinel outside the root keeps its content, mtime and atime; no file appears outside the root; nothing in the root changes',
      {
        tools: stack.tools.size,
        'tools with path parameters': toolsWithPaths,
        'path parameters attacked': Object.values(slotsPerTool).reduce((a, b) => a + b, 0),
        'attack calls': outcomes.length,
        ...Object.fromEntries(Object.entries(perFamily).map(([family, n]) => [`calls: ${family}`, n])),
        ...Object.fromEntries(Object.entries(tally(outcomes)).map(([code, n]) => [`refused: ${code}`, n])),
        'code_actions listing that ignored expectedHashes (nothing read or written)': ignored,
        'not refused': leaks.length,
      },
    )
    expect(leaks, 'attacks not refused with OUTSIDE_WORKSPACE, INVALID_ARGUMENT or NOT_FOUND').toEqual([])
    expect(sentinelTimes(), 'the sentinel was read (atime) or written (mtime)').toEqual(sentinelBefore)
    expect(readFileSync(fixture.sentinel, 'utf8'), "the sentinel's content").toBe(sentinelText)
    expect(
      listTree(fixture.scratch).filter((p) => !p.startsWith('workspace/') && !p.endsWith('canary.ts')),
      'new files outside the root',
    ).toEqual(outsideBefore.filter((p) => !p.endsWith('canary.ts')))
    expect(treeHashes(fixture.root), 'files inside the root changed').toEqual(rootBefore)
  })
})
