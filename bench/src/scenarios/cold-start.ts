import { performance } from 'node:perf_hooks'

import { createLsp, type LspQueryResult } from '@codeseam/lsp'
import { createLocalHost, type ProfileConfig } from '@codeseam/lsp-local'

import { startFloorLayer } from '../layers/floor-layer.js'
import { verifySeamResult } from '../layers/ctx-lsp-layer.js'
import { untilCorrect, withDeadline } from '../measure.js'
import { positionOf, type ReadQuery } from '../read-mix.js'
import { treeRss } from '../process-memory.js'
import type { ColdStartResult } from '../report.js'
import { round } from '../statistics.js'
import { builtinProfile, serverCommandOf } from '../server-commands.js'
import type { GeneratedWorkspace } from '../workspace-generator.js'

/** One built-in profile's cold start: which workspace, which query proves it answers correctly. */
export interface ColdStartCase {
  readonly profile: 'typescript' | 'typescript-language-server' | 'pyright'
  readonly workspace: GeneratedWorkspace
  readonly query: ReadQuery
  /** Host profile overrides that make this profile the one serving its extensions. */
  readonly hostProfiles: ReadonlyArray<ProfileConfig>
}

/** A cross-file definition in the Python workspace: module 1 calls compute0 from module 0. */
export function pythonDefinitionQuery(workspace: GeneratedWorkspace): ReadQuery {
  const path = 'pkg/mod1.py'
  const text = workspace.files.get(path)!
  const position = positionOf(text, 'compute0(value - 1)')
  return {
    label: 'definition: cross-module call',
    operation: 'definition',
    path,
    position,
    line: position.line + 1,
    matchText: 'compute0',
    expect: { file: 'pkg/mod0.py' },
  }
}

/** Spawn → initialize → first correct answer through the bare client. */
async function floorColdStart(testCase: ColdStartCase): Promise<ColdStartResult> {
  const profile = await builtinProfile(testCase.profile)
  if (profile.unavailable !== undefined) return { profile: testCase.profile, via: 'floor', available: false, note: profile.unavailable }
  const started = performance.now()
  const layer = await startFloorLayer(serverCommandOf(profile), testCase.workspace.root)
  const initializedMs = performance.now() - started
  try {
    const { attempts } = await untilCorrect(layer, testCase.query)
    const firstCorrectAnswerMs = performance.now() - started
    return {
      profile: testCase.profile,
      via: 'floor',
      available: true,
      initializedMs: round(initializedMs, 1),
      firstCorrectAnswerMs: round(firstCorrectAnswerMs, 1),
      attempts,
      serverRssBytes: treeRss(layer.pids()),
    }
  } finally {
    await layer.stop()
  }
}

/** A fresh host + ctx.lsp → first correct answer (the host starts the server lazily inside the query). */
async function hostColdStart(testCase: ColdStartCase, serverPids: () => number[]): Promise<ColdStartResult> {
  const started = performance.now()
  const host = await createLocalHost({ profiles: testCase.hostProfiles, idleTtlMs: 0 })
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root: testCase.workspace.root, trust: 'trusted' }])
  try {
    const { query } = testCase
    let attempts = 0
    const deadline = performance.now() + 120_000
    for (;;) {
      attempts++
      const result: LspQueryResult = await lsp.query({
        operation: 'definition',
        root: testCase.workspace.root,
        path: query.path,
        position: query.position,
      })
      if (verifySeamResult(testCase.workspace.root, query, result)) break
      if (performance.now() > deadline) throw new Error(`${testCase.profile} never answered correctly through the host`)
    }
    const firstCorrectAnswerMs = performance.now() - started
    return {
      profile: testCase.profile,
      via: 'host',
      available: true,
      firstCorrectAnswerMs: round(firstCorrectAnswerMs, 1),
      attempts,
      serverRssBytes: treeRss(serverPids()),
    }
  } finally {
    await withDeadline(
      (async () => {
        await release()
        await host.dispose()
        await lsp.dispose()
      })(),
      30_000,
      'the lsp-local host to dispose',
    )
  }
}

/** Cold start per built-in profile, through the floor and through the host. */
export async function runColdStarts(
  cases: ReadonlyArray<ColdStartCase>,
  serverPids: () => number[],
  withHost: boolean,
): Promise<ColdStartResult[]> {
  const results: ColdStartResult[] = []
  for (const testCase of cases) {
    results.push(await floorColdStart(testCase))
    if (withHost) {
      try {
        results.push(await hostColdStart(testCase, serverPids))
      } catch (error) {
        results.push({ profile: testCase.profile, via: 'host', available: false, note: (error as Error).message.slice(0, 300) })
      }
    }
  }
  return results
}
