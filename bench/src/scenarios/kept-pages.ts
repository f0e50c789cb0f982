// Pages from the computed answer (issue 53, RFC 0026): on the generated 1,000-module TypeScript workspace (the hot
// symbol referenced 5,001 times), `code_navigate` references through the tools layer, 40 a page. Each round asks
// the first page (the query runs, the answer is kept with the outlines of its files) and then follows the cursor for
// the later pages, each cut from the kept answer; the bare server's whole references query, warm, is timed beside
// it. The figure: each later page as a ratio of the first page, and of the bare query.
import { performance } from 'node:perf_hooks'

import { FloorClient } from '../floor-client.js'
import { startHostedLsp, type HostedLsp } from '../layers/ctx-lsp-layer.js'
import { withDeadline } from '../measure.js'
import { positionOf } from '../read-mix.js'
import type { KeptPagesResult } from '../report.js'
import { defaultProfile, serverCommandOf } from '../server-commands.js'
import { round, roundSummary, summarize } from '../statistics.js'
import { writeWorkspace } from '../workspace-generator.js'

interface Outcome {
  readonly ok: boolean
  readonly structured?: { totalFound?: number; page?: { nextCursor?: string } }
  readonly error?: { readonly code: string; readonly message: string }
}

/** Options of {@link runKeptPages}. */
export interface KeptPagesOptions {
  readonly scratch: string
  /** Rounds: each a first page and `pages` later pages, plus one bare query. */
  readonly rounds: number
  /** Later pages timed per round. */
  readonly pages: number
  readonly log: (message: string) => void
}

const limit = 40
const modules = 1_000

export async function runKeptPages(options: KeptPagesOptions): Promise<KeptPagesResult> {
  const workspace = await writeWorkspace(options.scratch, `ts-${modules}-pages`, modules)
  const position = positionOf(workspace.files.get(workspace.hotFile)!, `function ${workspace.hotSymbol}`, 0, 'function '.length)
  const client = await FloorClient.start(serverCommandOf(await defaultProfile('typescript')), workspace.root)
  let hosted: HostedLsp | undefined
  try {
    hosted = await startHostedLsp(workspace.root, { otherPids: () => (client.process.pid === undefined ? [] : [client.process.pid]) })
    const tools = await import('@codeseam/tool-lsp')
    const navigate = tools.readTools.find((tool) => tool.name === 'code_navigate')!
    const lsp = hosted.lsp
    const page = async (cursor?: string) => {
      const args = {
        target: { path: workspace.hotFile, symbol: workspace.hotSymbol },
        kind: 'references',
        limit,
        ...(cursor === undefined ? {} : { cursor }),
      }
      const outcome = (await tools.callTool(navigate, args, tools.toolContext(lsp))) as Outcome
      if (!outcome.ok) throw new Error(`code_navigate failed: ${outcome.error?.code}: ${outcome.error?.message}`)
      return outcome.structured!
    }
    const bare = async () => (await client.references(workspace.hotFile, position))?.length ?? 0
    // Both warm, with the whole answer: the bare server and codeseam until every generated use is found.
    await withDeadline(
      (async () => {
        while ((await bare()) < workspace.hotReferenceCount);
        while (((await page()).totalFound ?? 0) < workspace.hotReferenceCount);
      })(),
      300_000,
      `${workspace.hotReferenceCount} references from both sides`,
    )
    options.log(
      `${workspace.name}: ${workspace.hotReferenceCount} references, ${limit} a page; ${options.rounds} rounds of 1 + ${options.pages} pages`,
    )
    const bareMs: number[] = []
    const firstMs: number[] = []
    const laterMs: number[] = []
    for (let r = 0; r < options.rounds; r++) {
      let started = performance.now()
      const found = await bare()
      bareMs.push(performance.now() - started)
      if (found !== workspace.hotReferenceCount) throw new Error(`the bare server found ${found} references`)
      started = performance.now()
      let cursor = (await page()).page?.nextCursor
      firstMs.push(performance.now() - started)
      for (let p = 0; p < options.pages && cursor !== undefined; p++) {
        started = performance.now()
        cursor = (await page(cursor)).page?.nextCursor
        laterMs.push(performance.now() - started)
      }
    }
    const bareSummary = summarize(bareMs)
    const first = summarize(firstMs)
    const later = summarize(laterMs)
    return {
      workspace: workspace.name,
      references: workspace.hotReferenceCount,
      limit,
      bare: roundSummary(bareSummary),
      first: roundSummary(first),
      later: roundSummary(later),
      laterToFirst: round(later.median / first.median, 3),
      laterToBare: round(later.median / bareSummary.median, 3),
    }
  } finally {
    await hosted?.dispose()
    await client.stop()
  }
}
