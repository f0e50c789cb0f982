import { spawnSync } from 'node:child_process'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import { lspOperations, type LspOperation } from '@codeseam/lsp'
import {
  formatConformanceReport,
  goFixture,
  pythonFixture,
  runConformance,
  rustFixture,
  typeScriptFixture,
  type ConformanceCheckId,
  type ConformanceFixture,
} from '@codeseam/lsp/testing'

import { createLocalHost, findOnPath, type HostOptions, type LocalHost, type ServerProfile } from '../src/index.js'
import { LeakCheck } from './helpers.js'

const hosts: LocalHost[] = []
const leaks = new LeakCheck()
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()))
  expect(await leaks.survivors()).toEqual([])
})

/** One built-in language's conformance run: its fixture record, the host that serves it, and what it may skip. */
interface LanguageRun {
  readonly name: string
  readonly fixture: ConformanceFixture
  readonly profileId: string
  readonly options: HostOptions
  /** The checks that may be skipped, because the provider does not claim their operation or the record names a limit. */
  readonly skipped: ReadonlyArray<ConformanceCheckId>
  /** Why the run cannot happen here: the server is not installed (names the install command). */
  readonly missing?: string
  /**
   * Start the server and wait until it has loaded the project before the kit asks, for a server whose
   * readiness the host cannot tell yet (see {@link settled}).
   */
  readonly settle?: boolean
}

/**
 * Starts the provider's server for `root` and waits until its status has stayed `ready` for a second.
 * rust-analyzer answers pull diagnostics empty while it is still loading the crate (the answer's meta says
 * `indexing`), and it begins its loading progress only after the handshake, so the `progressQuiet` rule
 * passes before it starts. Its readiness signal (`experimental/serverStatus`, `quiescent`) belongs to its
 * built-in profile; until that lands, this run waits as a careful caller would.
 */
async function settled(host: LocalHost, providerId: string, root: string, path: string, languageId: string): Promise<void> {
  const provider = host.providers.find((p) => p.id === providerId)
  await provider?.query({ operation: 'documentSymbols', root, path, languageId }, new AbortController().signal)
  const deadline = Date.now() + 60_000
  let readySince: number | undefined
  while (Date.now() < deadline) {
    const ready = host.status().some((s) => s.providerId === providerId && s.state === 'ready')
    readySince = ready ? (readySince ?? Date.now()) : undefined
    if (readySince !== undefined && Date.now() - readySince >= 1_000) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${providerId} did not settle within 60 s: ${JSON.stringify(host.status())}`)
}

/** The first candidate that answers `versionArgs`: a file that exists is not enough (rustup's proxy exists and fails). */
function runnable(versionArgs: ReadonlyArray<string>, candidates: ReadonlyArray<string | undefined>): string | undefined {
  return candidates.find(
    (command) => command !== undefined && spawnSync(command, versionArgs, { stdio: 'ignore', timeout: 10_000 }).status === 0,
  )
}

/**
 * A server main does not ship a built-in profile for yet, run through a user profile in the host options.
 * When the built-in `gopls` / `rust-analyzer` profiles land, this becomes `{ profileId, options: {} }`.
 */
function userProfileRun(
  run: Omit<LanguageRun, 'profileId' | 'options' | 'missing'>,
  profile: Omit<ServerProfile, 'command'> & { readonly operations: ReadonlyArray<LspOperation> },
  command: string | undefined,
  install: string,
): LanguageRun {
  return {
    ...run,
    profileId: profile.id,
    options: command === undefined ? {} : { profiles: [{ ...profile, command }] },
    ...(command === undefined ? { missing: `${profile.id} is not installed: ${install}` } : {}),
  }
}

const gopls = runnable(
  ['version'],
  [findOnPath('gopls'), nodePath.join(process.env.GOPATH ?? nodePath.join(homedir(), 'go'), 'bin', 'gopls')],
)
const rustAnalyzer = runnable(
  ['--version'],
  [nodePath.join(homedir(), '.cache', 'codeseam', 'rust-analyzer-0.0.348', 'bin', 'rust-analyzer')],
)

const runs: ReadonlyArray<LanguageRun> = [
  { name: 'TypeScript', fixture: typeScriptFixture, profileId: 'typescript', options: {}, skipped: ['declaration'] },
  {
    name: 'Python',
    fixture: pythonFixture,
    profileId: 'pyright',
    options: {},
    // pyright has no inlay hints; its type hierarchy and implementation are derived by codeseam.
    skipped: ['inlayHints'],
  },
  userProfileRun(
    { name: 'Go', fixture: goFixture, skipped: ['declaration'] },
    {
      id: 'gopls',
      args: [],
      extensions: { '.go': 'go' },
      rootMarkers: ['go.mod'],
      // gopls v0.23 negotiates every operation but declaration.
      operations: lspOperations.filter((o) => o !== 'declaration'),
    },
    gopls,
    'go install golang.org/x/tools/gopls@v0.23.0 (lands in $(go env GOPATH)/bin)',
  ),
  userProfileRun(
    { name: 'Rust', fixture: rustFixture, skipped: ['typeHierarchy'], settle: true },
    {
      id: 'rust-analyzer',
      args: [],
      extensions: { '.rs': 'rust' },
      rootMarkers: ['Cargo.toml'],
      // It loads the cargo workspace after initialize, reporting work-done progress until it has.
      readiness: 'progressQuiet',
      // rust-analyzer 0.0.348 negotiates every operation but the type hierarchy.
      operations: lspOperations.filter((o) => !['prepareTypeHierarchy', 'supertypes', 'subtypes'].includes(o)),
    },
    rustAnalyzer,
    'cargo install ra_ap_rust-analyzer --version 0.0.348 --locked --root ~/.cache/codeseam/rust-analyzer-0.0.348',
  ),
]

for (const run of runs) {
  if (run.missing !== undefined && process.env.CI !== 'true') {
    console.log(`SKIPPED the ${run.name} conformance run: ${run.missing}`)
    test.skip(`the seam conformance kit passes on the ${run.name} fixture: ${run.missing}`, () => {})
    continue
  }
  test(`the seam conformance kit passes on the ${run.name} fixture (${run.profileId})`, { timeout: 300_000 }, async () => {
    expect(run.missing, 'under CI=true a server that is not installed fails its run').toBeUndefined()
    const report = await runConformance({
      fixture: run.fixture,
      setup: async (root) => {
        const host = await createLocalHost(run.options)
        hosts.push(host)
        const workspace = await host.openWorkspace(root, { trust: 'trusted' })
        const provider = host.providers.find((p) => p.id === `local:${run.profileId}`)
        if (provider === undefined) throw new Error(`no ${run.profileId} provider`)
        if (run.settle)
          await settled(host, provider.id, workspace.root, nodePath.join(workspace.root, run.fixture.main), run.fixture.languageId)
        return {
          provider,
          workspace,
          dispose: async () => {
            await leaks.record()
            await host.dispose()
          },
        }
      },
    })
    const text = formatConformanceReport(report)
    console.log(text)
    expect(
      report.checks.filter((c) => c.status === 'failed'),
      text,
    ).toEqual([])
    expect(
      report.checks
        .filter((c) => c.status === 'skipped')
        .map((c) => c.id)
        .sort(),
      text,
    ).toEqual([...run.skipped].sort())
    expect(report.passed).toBe(true)
  })
}
