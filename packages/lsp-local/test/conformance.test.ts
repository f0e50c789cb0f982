import { afterAll, expect, test } from 'vitest'
import {
  conformanceFixtures,
  formatConformanceReport,
  runConformance,
  type ConformanceCheckId,
  type ConformanceFixture,
} from '@codeseam/lsp/testing'
import { builtInLanguages } from '@codeseam/lsp'

import { builtinLanguages, builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { languageRecords } from '../src/languages/index.js'
import { conformanceRuns } from '../src/languages/record.js'
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

/**
 * Every record with a conformance run (its `conformance`): the seam's fixture for its language, its limits said to
 * the kit (the check is skipped with the reason), and what the run must show — written out in the record, so a
 * record that starts or stops claiming an operation fails here until it agrees.
 */
const withRuns = languageRecords.flatMap((record) => {
  const conformances = conformanceRuns(record)
  // A server of several languages names each run by its language (JDT LS: Java, Kotlin); one of one language by the record's.
  const name = (language: string) =>
    conformances.length === 1 ? record.language : (builtInLanguages.find((l) => l.id === language)?.label ?? language)
  return conformances.map((conformance) => ({ record, conformance, name: name(conformance.language) }))
})

/** The seam's fixture for a record's language; a record naming a language the seam has no fixture for fails here. */
function fixtureOf(language: string): ConformanceFixture {
  const fixture = conformanceFixtures[language]
  if (fixture === undefined)
    throw new Error(`the seam has no conformance fixture for "${language}" (packages/lsp/src/languages/${language}/fixture.ts)`)
  return fixture
}

const builtins = await builtinProfiles()
// A server found without a helper program its record's checks need (bash without ShellCheck or shfmt) cannot run
// them: it is missing here, with what to install, as an absent server is.
const lacking = new Map((await builtinLanguages()).map((l) => [l.id, Object.values(l.lacking ?? {}).join('; ')]))
const runs: ReadonlyArray<LanguageRun> = withRuns.map(({ record, conformance, name }) => {
  const profile = builtins.find((p) => p.id === record.id)
  return {
    name,
    fixture: withLimits(fixtureOf(conformance.language), conformance.limits),
    profileId: record.id,
    ...(record.enabled === false ? { profiles: alternativeProfiles(record) } : {}),
    ...('runs' in conformance.expect ? { runs: conformance.expect.runs } : { skipped: conformance.expect.skipped }),
    ...(profile?.unavailable !== undefined
      ? { missing: profile.unavailable }
      : (lacking.get(record.id) ?? '') !== ''
        ? { missing: lacking.get(record.id) ?? '' }
        : {}),
  }
})

test('every record whose language has a seam fixture has a conformance run', () => {
  // A record serving a language the seam has a fixture for runs it; one without a run says why here.
  const languagesOf = (record: (typeof languageRecords)[number]) =>
    Object.values(record.profile({ found: true, command: record.id }).extensions)
  const run = (record: (typeof languageRecords)[number]) => conformanceRuns(record).map((conformance) => conformance.language)
  const unrun = languageRecords.filter((record) =>
    languagesOf(record).some((language) => conformanceFixtures[language] !== undefined && !run(record).includes(language)),
  )
  // typescript-language-server is the native server's alternative on the same fixture: its suites run it instead.
  expect(unrun.map((record) => record.id)).toEqual(['typescript-language-server'])
  expect(runs.length).toBeGreaterThanOrEqual(16)
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
