import { afterAll, expect, test } from 'vitest'
import {
  bashFixture,
  cppFixture,
  cssFixture,
  dockerfileFixture,
  htmlFixture,
  jsonFixture,
  markdownFixture,
  protoFixture,
  tomlFixture,
  yamlFixture,
  formatConformanceReport,
  goFixture,
  pythonFixture,
  runConformance,
  rustFixture,
  typeScriptFixture,
  type ConformanceCheckId,
  type ConformanceFixture,
} from '@codeseam/lsp/testing'

import { builtinLanguages, builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { languageRecords } from '../src/languages/index.js'
import { LeakCheck } from './helpers.js'

const hosts: LocalHost[] = []
const leaks = new LeakCheck()
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()))
  expect(await leaks.survivors()).toEqual([])
})

/** One built-in language's conformance run: its fixture record, the built-in profile that serves it, and what it may skip. */
interface LanguageRun {
  readonly name: string
  readonly fixture: ConformanceFixture
  readonly profileId: string
  /** The checks that may be skipped, because the provider does not claim their operation or the record names a limit. */
  readonly skipped?: ReadonlyArray<ConformanceCheckId>
  /** Or: the record checks that must run (and pass); every other one is skipped. */
  readonly runs?: ReadonlyArray<ConformanceCheckId>
  /** Why the run cannot happen here: the built-in profile's own reason (what is missing, and the install command). */
  readonly missing?: string
  /** An alternative (off by default): the host config that turns it on and turns off the records it stands in for. */
  readonly profiles?: ReadonlyArray<{ readonly id: string; readonly enabled: boolean }> | undefined
}

function withLimits(fixture: ConformanceFixture, limits: Partial<Record<ConformanceCheckId, string>> | undefined): ConformanceFixture {
  return limits === undefined ? fixture : { ...fixture, limits: { ...fixture.limits, ...limits } }
}

/** For an alternative record, the profiles that turn it on in place of the default records claiming its extensions. */
function alternativeProfiles(record: (typeof languageRecords)[number]): LanguageRun['profiles'] {
  if (record.enabled !== false) return undefined
  const extensions = Object.keys(record.profile({ found: true, command: 'node' }).extensions)
  const replaced = languageRecords.filter(
    (other) =>
      other !== record &&
      other.enabled !== false &&
      Object.keys(other.profile({ found: true, command: 'node' }).extensions).some((e) => extensions.includes(e)),
  )
  return [{ id: record.id, enabled: true }, ...replaced.map((other) => ({ id: other.id, enabled: false }))]
}

// The built-in profiles as the language records found them on this machine, and what each may skip: the checks
// whose operation its support table says the server lacks (or a record limit). Written out, so a record that
// starts or stops claiming an operation fails here until this list agrees.
const expectedSkips: Readonly<Record<string, ReadonlyArray<ConformanceCheckId>>> = {
  typescript: ['declaration'],
  // pyright has no inlay hints; its type hierarchy and implementation are derived by codeseam.
  pyright: ['inlayHints'],
  // basedpyright (an alternative, turned on for its run in place of pyright): pyright's answers plus inlay hints.
  basedpyright: [],
  // ty (an alternative too): its limits below.
  ty: ['completion', 'hoverNonAscii'],
  gopls: ['declaration'],
  'rust-analyzer': ['typeHierarchy'],
  // clangd-19 (this machine's) has no outgoing calls (clangd 20 does), so the call-hierarchy check is not run.
  // The cpp record's limits: references and rename (no background index).
  clangd: ['callHierarchy', 'references', 'rename'],
}
// The configuration and script languages claim a few operations each: written as the record checks that run
// (every other check is skipped, and none that runs may fail).
const expectedRuns: Readonly<Record<string, ReadonlyArray<ConformanceCheckId>>> = {
  yaml: ['definition', 'diagnostics', 'documentSymbols', 'format', 'hover'],
  json: ['diagnostics', 'documentSymbols', 'format', 'hover'],
  css: ['diagnostics', 'documentSymbols', 'format', 'hover'],
  // HTML itself is not validated: no diagnostics check.
  html: ['documentSymbols', 'format', 'hover'],
  // Markdown's link checks are warnings (no type error to find) and it has no formatter.
  markdown: ['definition', 'documentSymbols', 'references'],
  bash: ['definition', 'diagnostics', 'documentSymbols', 'format', 'hover', 'references'],
  dockerfile: ['completion', 'diagnostics', 'documentSymbols', 'format', 'hover'],
  taplo: ['diagnostics', 'documentSymbols', 'format'],
  buf: ['definition', 'diagnostics', 'documentSymbols', 'format', 'references'],
}
const fixtureFor: Readonly<Record<string, ConformanceFixture>> = {
  typescript: typeScriptFixture,
  pyright: pythonFixture,
  gopls: goFixture,
  'rust-analyzer': rustFixture,
  clangd: cppFixture,
  yaml: yamlFixture,
  json: jsonFixture,
  css: cssFixture,
  html: htmlFixture,
  markdown: markdownFixture,
  bash: bashFixture,
  dockerfile: dockerfileFixture,
  taplo: tomlFixture,
  buf: protoFixture,
  basedpyright: pythonFixture,
  ty: pythonFixture,
}
/**
 * What a server cannot pass on a fixture record it shares with another server (said to the kit as the record's
 * limits, so the check is skipped with the reason). Each was asked of the bare server with the same position.
 */
const serverLimits: Readonly<Record<string, Partial<Record<ConformanceCheckId, string>>>> = {
  ty: {
    completion: 'ty 1.0.0 offers no completion at the start of a member name after `.` (it completes the name typed so far)',
    hoverNonAscii: "ty 1.0.0's hover on a variable shows its type, not its name",
  },
}
const builtins = await builtinProfiles()
// A server found without a helper program its record's checks need (bash without ShellCheck or shfmt) cannot run
// them: it is missing here, with what to install, as an absent server is.
const lacking = new Map((await builtinLanguages()).map((l) => [l.id, Object.values(l.lacking ?? {}).join('; ')]))
const runs: ReadonlyArray<LanguageRun> = languageRecords
  .filter((record) => fixtureFor[record.id] !== undefined)
  .map((record) => {
    const profile = builtins.find((p) => p.id === record.id)
    return {
      name: record.language,
      fixture: withLimits(fixtureFor[record.id] as ConformanceFixture, serverLimits[record.id]),
      profileId: record.id,
      ...(record.enabled === false ? { profiles: alternativeProfiles(record) } : {}),
      ...(record.id in expectedRuns ? { runs: expectedRuns[record.id] ?? [] } : { skipped: expectedSkips[record.id] ?? [] }),
      ...(profile?.unavailable !== undefined
        ? { missing: profile.unavailable }
        : (lacking.get(record.id) ?? '') !== ''
          ? { missing: lacking.get(record.id) ?? '' }
          : {}),
    }
  })

test('every built-in language with a fixture record has a conformance run', () => {
  expect(runs.map((run) => run.profileId).sort()).toEqual([...Object.keys(expectedSkips), ...Object.keys(expectedRuns)].sort())
})

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
        const host = await createLocalHost(run.profiles === undefined ? {} : { profiles: [...run.profiles] })
        hosts.push(host)
        const workspace = await host.openWorkspace(root, { trust: 'trusted' })
        const provider = host.providers.find((p) => p.id === `local:${run.profileId}`)
        if (provider === undefined) throw new Error(`no ${run.profileId} provider`)
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
    const ids = (status: string) =>
      report.checks
        .filter((c) => c.status === status)
        .map((c) => c.id)
        .sort()
    if (run.runs !== undefined)
      expect(
        ids('passed').filter((id) => id !== undefined),
        text,
      ).toEqual([...run.runs].sort())
    else expect(ids('skipped'), text).toEqual([...(run.skipped ?? [])].sort())
    expect(report.passed).toBe(true)
  })
}
