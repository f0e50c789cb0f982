// The first-answer sides of the Go and Rust rows (scenarios/languages.ts): the final answer, the bare server's
// cold start asked until its answer counts as complete (first-complete.ts), codeseam's one-attempt cold start.
import { performance } from 'node:perf_hooks'

import { createLsp } from '@codeseam/lsp'
import { createLocalHost } from '@codeseam/lsp-local'

import { seamAsk, type SymbolTarget } from '../../../packages/lsp-local/test/oracle/index.js'
import { firstCompleteAnswer, settledAnswer, type CompletenessRule, type PolledAnswer } from '../first-complete.js'
import { FloorClient, type ServerCommand } from '../floor-client.js'
import { withDeadline } from '../measure.js'
import { commandLineOf, isWatchdogCommand, parentOf } from '../own-memory.js'
import { childProcesses, treeRss } from '../process-memory.js'
import type { LanguageBareColdSide } from '../report.js'
import { quantile, round } from '../statistics.js'
import { referenceKeys } from './real-repositories.js'

/** How long any one side may take to a complete answer, or a server to say quiescent. */
export const deadlineMs = 180_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Top-level language-server processes among this process's descendants: not in `excluded`, not the host's watchdog. */
export function serverRoots(excluded: ReadonlySet<number>): number[] {
  return childProcesses().filter((pid) => !excluded.has(pid) && parentOf(pid) === process.pid && !isWatchdogCommand(commandLineOf(pid)))
}

/** Median and largest of RSS samples, bytes. */
export function rssFigure(samples: ReadonlyArray<number>): { median: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: Math.round(quantile(sorted, 0.5)), max: sorted[sorted.length - 1] ?? 0 }
}

/** Asks references once: the keys, or the failure (rust-analyzer answers "content modified" while it loads). */
async function askReferences(client: FloorClient, root: string, target: SymbolTarget, started: number): Promise<PolledAnswer> {
  const quiescent = client.lastServerStatus?.quiescent === true
  try {
    const keys = referenceKeys(root, await client.references(target.path, { line: target.line, character: target.character }))
    return { ms: performance.now() - started, keys, quiescent }
  } catch (error) {
    return { ms: performance.now() - started, error: (error as Error).message.split('\n')[0]!.slice(0, 200), quiescent }
  }
}

/**
 * The final answer: a bare server with every source file open (rust-analyzer: asked only while quiescent),
 * asked every 250 ms until three answers in a row agree.
 */
export async function finalAnswer(
  command: ServerCommand,
  root: string,
  files: ReadonlyArray<string>,
  target: SymbolTarget,
  rule: CompletenessRule,
): Promise<{ keys: ReadonlyArray<string>; ms: number }> {
  const started = performance.now()
  const client = await FloorClient.start(command, root, { serverStatus: rule === 'quiescentThenEqualsFinal' })
  try {
    for (const file of files) await client.ensureOpen(file)
    const answers: PolledAnswer[] = []
    for (;;) {
      if (rule === 'quiescentThenEqualsFinal') await client.untilQuiescent(deadlineMs)
      const answer = await askReferences(client, root, target, started)
      if (rule !== 'quiescentThenEqualsFinal' || answer.quiescent === true) answers.push(answer)
      const settled = settledAnswer(answers, 3)
      if (settled !== undefined) return { keys: settled, ms: performance.now() - started }
      if (performance.now() - started > deadlineMs)
        throw new Error(`the final answer never settled within ${deadlineMs} ms (last: ${JSON.stringify(answers.at(-1)).slice(0, 200)})`)
      await sleep(250)
    }
  } finally {
    await withDeadline(client.stop(), 30_000, 'the bare server to stop')
  }
}

/** Bare, cold: spawn → initialize → the target file opened → asked until an answer counts as complete. */
export async function bareCold(
  command: ServerCommand,
  root: string,
  target: SymbolTarget,
  final: ReadonlyArray<string>,
  rule: CompletenessRule,
): Promise<LanguageBareColdSide> {
  const started = performance.now()
  const client = await FloorClient.start(command, root, { serverStatus: rule === 'quiescentThenEqualsFinal' })
  const answers: PolledAnswer[] = []
  let quiescentMs: number | undefined
  try {
    await client.ensureOpen(target.path)
    for (;;) {
      if (rule === 'quiescentThenEqualsFinal') {
        await client.untilQuiescent(Math.max(1, deadlineMs - (performance.now() - started)))
        quiescentMs ??= performance.now() - started
      }
      answers.push(await askReferences(client, root, target, started))
      const first = firstCompleteAnswer(answers, final, rule)
      if (first !== undefined) {
        const rssBytes = client.process.pid === undefined ? 0 : treeRss([client.process.pid])
        const answered = answers.find((answer) => answer.keys !== undefined)
        return {
          ms: round(first.answer.ms, 1),
          complete: true,
          attempts: answers.length,
          ...(answered === undefined ? {} : { firstAnswerMs: round(answered.ms, 1) }),
          ...(quiescentMs === undefined ? {} : { quiescentMs: round(quiescentMs, 1) }),
          found: first.answer.keys!.length,
          rssBytes,
        }
      }
      if (performance.now() - started > deadlineMs) break
      await sleep(50)
    }
  } catch (error) {
    answers.push({ ms: performance.now() - started, error: (error as Error).message.split('\n')[0]!.slice(0, 200) })
  } finally {
    await withDeadline(client.stop(), 30_000, 'the bare server to stop')
  }
  const last = answers.at(-1)
  return {
    complete: false,
    attempts: answers.length,
    ...(quiescentMs === undefined ? {} : { quiescentMs: round(quiescentMs, 1) }),
    found: last?.keys?.length ?? 0,
    error: last?.error ?? `no complete answer within ${deadlineMs} ms`,
  }
}

/** codeseam, cold: a new host with default settings (untrusted root), asked once through ctx.lsp. Host creation → answer. */
export async function seamCold(root: string, target: SymbolTarget): Promise<{ ms: number; keys: string[]; rssBytes: number }> {
  const excluded = new Set(childProcesses())
  const started = performance.now()
  const host = await createLocalHost()
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root }])
  try {
    // The language only filters workspace-symbol answers; references are keyed the same for every language.
    const keys = await seamAsk(lsp, root, 'typescript', 'references', target)
    const ms = performance.now() - started
    return { ms, keys, rssBytes: treeRss(serverRoots(excluded)) }
  } finally {
    await withDeadline(
      (async () => {
        await release()
        await lsp.dispose()
        await host.dispose()
      })(),
      30_000,
      'the lsp-local host to dispose',
    )
  }
}
