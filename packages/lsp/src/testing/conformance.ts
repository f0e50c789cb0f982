import { LspError } from '../errors.js'
import { extensionOf, isWithin } from '../paths.js'
import type { LspProvider } from '../provider.js'
import { resultKindByOperation, type LspOperation, type LspQueryRequest, type LspQueryResult, type LspResultFor } from '../vocabulary.js'
import { CheckFailure, fileChecks, kitChecks, positionChecks, workspaceChecks, type CheckContext } from './checks.js'
import {
  containmentCheck,
  derivedCheck,
  registrationCheck,
  typedErrorChecks,
  withTimeout,
  workspaceCheck,
  type DerivedAnswer,
} from './contract-checks.js'
import type { ConformanceCheck, ConformanceOptions, ConformanceReport, ConformanceSubject } from './conformance-types.js'
import type { ConformanceFixture } from './fixture-record.js'
import { copyFixture, type FixtureWorkspace } from './fixture.js'
import { typeScriptFixture } from './fixtures.js'

export type { ConformanceCheck, ConformanceOptions, ConformanceReport, ConformanceSubject } from './conformance-types.js'

type KitCheck = (typeof positionChecks)[number] | (typeof fileChecks)[number] | (typeof workspaceChecks)[number]

/** The names of the checks that need operation `O`. */
type ChecksOf<O extends LspOperation> = KitCheck extends infer C
  ? C extends { readonly name: infer N; readonly needs: ReadonlyArray<infer P> }
    ? O extends P
      ? N
      : never
    : never
  : never

/**
 * The checks that hold a provider to each operation. One entry per operation, each naming checks that need
 * it: a new seam operation is a compile error here until the kit has a check for it.
 */
export const checksByOperation = {
  definition: ['definition lands on the declaration', 'definition counts UTF-16 columns on a line with non-ASCII text'],
  typeDefinition: ['typeDefinition lands on the type of a variable'],
  declaration: ['declaration lands on the declaration'],
  implementation: ['implementation finds every implementation of the interface'],
  references: ['references include the declaration and every use site'],
  hover: ['hover shows the declared type', 'hover on a non-ASCII identifier'],
  signatureHelp: ['signature help inside a call'],
  documentSymbols: ['document symbols form a tree with kinds'],
  workspaceSymbols: ['workspace symbols find a type by name'],
  prepareCallHierarchy: ['call hierarchy walks callers and callees'],
  incomingCalls: ['call hierarchy walks callers and callees'],
  outgoingCalls: ['call hierarchy walks callers and callees'],
  prepareTypeHierarchy: ['type hierarchy walks supertypes and subtypes'],
  supertypes: ['type hierarchy walks supertypes and subtypes'],
  subtypes: ['type hierarchy walks supertypes and subtypes'],
  diagnostics: ['the deliberate type error is reported at its line'],
  inlayHints: ['inlay hints are positioned inside the document'],
  completion: ['completion lists the members'],
  codeActions: [
    'code actions offer the expected action, each with an id and a title',
    'resolveCodeAction computes the edit of the expected action, without writing',
  ],
  prepareRename: ['prepareRename accepts a symbol and refuses a keyword'],
  rename: ['rename touches every file that uses the symbol, and writes nothing'],
  format: ['format produces edits for a badly formatted line'],
  resolveCodeAction: ['resolveCodeAction computes the edit of the expected action, without writing'],
} as const satisfies { readonly [O in LspOperation]: ReadonlyArray<ChecksOf<O>> }

/** Locations carried by a result, for the containment check. */
function locationsOf(result: LspQueryResult): string[] {
  switch (result.kind) {
    case 'locations':
      return result.locations.map((l) => l.path)
    case 'workspaceSymbols':
      return result.symbols.map((s) => s.location.path)
    case 'hierarchyItems':
      return result.items.map((i) => i.path)
    case 'hierarchyCalls':
      return result.calls.map((c) => c.item.path)
    case 'diagnostics':
      return result.files.map((f) => f.path)
    case 'workspaceEdit':
      return result.edit.operations.flatMap((op) => (op.type === 'rename' ? [op.oldPath, op.newPath] : [op.path]))
    case 'codeActionResolution':
      return [result.edit, ...(result.command?.appliedEdits ?? [])].flatMap((e) =>
        e.operations.flatMap((op) => (op.type === 'rename' ? [op.oldPath, op.newPath] : [op.path])),
      )
    case 'hover':
    case 'signatureHelp':
    case 'documentSymbols':
    case 'inlayHints':
    case 'completion':
    case 'codeActions':
    case 'prepareRename':
      return []
  }
}

/** Why a check does not run on this record: a field it reads is missing, or the record names a limit. */
function notRunBy(record: ConformanceFixture, spec: (typeof kitChecks)[number]): string | undefined {
  const limit = record.limits?.[spec.id]
  if (limit !== undefined) return `the ${record.languageId} fixture record says: ${limit}`
  const missing = spec.uses.filter((field) => record[field] === undefined)
  if (missing.length > 0) return `the ${record.languageId} fixture record has no ${missing.join(', ')}`
  return undefined
}

/** One run of the kit: the record, its fixture copy, the deadline of a check and the checks so far. */
interface Run {
  readonly record: ConformanceFixture
  readonly fixture: FixtureWorkspace
  readonly checkTimeoutMs: number
  readonly checks: ConformanceCheck[]
}

/** The language of a path, by the extensions the provider claims (the record's language otherwise). */
function languageIdsOf(provider: LspProvider, record: ConformanceFixture): (path: string) => string {
  return (path) => {
    const extension = extensionOf(path) ?? ''
    const entry = Object.entries(provider.extensions).find(
      ([key]) => key.toLowerCase() === extension || `.${key.toLowerCase()}` === extension,
    )
    return entry?.[1] ?? record.languageId
  }
}

/**
 * The query the checks use: checks the result kind, and records paths outside the root and derived answers
 * for the containment and derivation checks.
 */
function recordingQuery(provider: LspProvider, fixture: FixtureWorkspace, main: string, languageIdFor: (path: string) => string) {
  const outside: string[] = []
  const derived: DerivedAnswer[] = []
  const query = async <R extends LspQueryRequest>(request: R, signal?: AbortSignal): Promise<LspResultFor<R['operation']>> => {
    const path =
      'path' in request && typeof request.path === 'string' ? request.path : 'item' in request ? request.item.path : fixture.path(main)
    const result = (await provider.query(
      { ...request, languageId: languageIdFor(path) },
      signal ?? new AbortController().signal,
    )) as LspQueryResult
    const expected = resultKindByOperation[request.operation]
    if (result === null || typeof result !== 'object' || result.kind !== expected) {
      throw new CheckFailure(
        `${request.operation} answered with kind "${String((result as { kind?: unknown } | null)?.kind)}", expected "${expected}"`,
      )
    }
    for (const path of locationsOf(result)) if (!isWithin(fixture.root, path)) outside.push(`${request.operation}: ${path}`)
    if (result.meta.derived !== undefined) derived.push({ operation: request.operation, derivation: result.meta.derived })
    return result as LspResultFor<R['operation']>
  }
  return { query, outside, derived }
}

/** Runs the record-driven checks, skipping those the provider does not claim or the record cannot drive. */
async function runKitChecks(run: Run, context: CheckContext, claimed: ReadonlySet<LspOperation>): Promise<void> {
  const { record, checkTimeoutMs, checks } = run
  for (const spec of kitChecks) {
    const operation = spec.needs[0]
    const named = { id: spec.id, name: spec.name, ...(operation ? { operation } : {}) }
    const missing = spec.needs.filter((op) => !claimed.has(op))
    const notRun = missing.length > 0 ? `provider does not claim ${missing.join(', ')}` : notRunBy(record, spec)
    if (notRun !== undefined) {
      checks.push({ ...named, status: 'skipped', message: notRun })
      continue
    }
    try {
      const message = await withTimeout(checkTimeoutMs, () => spec.run(context, record))
      checks.push({ ...named, status: 'passed', message })
    } catch (error) {
      const message =
        error instanceof CheckFailure
          ? error.message
          : error instanceof LspError
            ? `threw LspError ${error.code}: ${error.message}`
            : `threw an untyped error: ${error instanceof Error ? error.message : String(error)}`
      checks.push({ ...named, status: 'failed', message })
    }
  }
}

/** Every check on the subject the factory built, pushed to the run's checks as it finishes. */
async function checkSubject(subject: ConformanceSubject, run: Run): Promise<void> {
  const { provider } = subject
  const { record, fixture, checkTimeoutMs, checks } = run
  checks.push(await registrationCheck(provider))
  const claimed = new Set(provider.operations)
  const languageIdFor = languageIdsOf(provider, record)
  const { query, outside, derived } = recordingQuery(provider, fixture, record.main, languageIdFor)
  await runKitChecks(run, { fixture, root: fixture.root, query }, claimed)
  checks.push(derivedCheck(derived, claimed))
  checks.push(containmentCheck(outside))
  checks.push(...(await typedErrorChecks({ provider, fixture, main: record.main, checkTimeoutMs, languageIdFor })))
  if (subject.workspace !== undefined) checks.push(await workspaceCheck(subject.workspace, fixture, record.main))
}

/**
 * Runs the conformance suite against a provider, on a copy of a language fixture (the TypeScript record by
 * default). Plain library: no test framework needed, so it also runs inside a VS Code extension host. Every
 * claimed operation is checked against answers located by text in the fixture, as the record describes; plus
 * registration, result kinds, containment and typed errors.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const record = options.fixture ?? typeScriptFixture
  const fixture = await copyFixture(options.fixtureDir ?? record.dir)
  const run: Run = { record, fixture, checkTimeoutMs: options.checkTimeoutMs ?? 60_000, checks: [] }
  const { checks } = run
  let subject: ConformanceSubject | undefined
  let providerIdText = '(unknown)'
  try {
    subject = await options.setup(fixture.root)
    providerIdText = String(subject.provider.id)
    await checkSubject(subject, run)
  } catch (error) {
    checks.push({ name: 'setup', status: 'failed', message: error instanceof Error ? error.message : String(error) })
  } finally {
    try {
      await subject?.dispose?.()
    } finally {
      await fixture.dispose()
    }
  }
  const counts = {
    passed: checks.filter((c) => c.status === 'passed').length,
    failed: checks.filter((c) => c.status === 'failed').length,
    skipped: checks.filter((c) => c.status === 'skipped').length,
  }
  return { providerId: providerIdText, languageId: record.languageId, passed: counts.failed === 0 && counts.passed > 0, checks, counts }
}

/** A readable report: one line per check, failures first. */
export function formatConformanceReport(report: ConformanceReport): string {
  const order = { failed: 0, passed: 1, skipped: 2 } as const
  const lines = [...report.checks]
    .sort((a, b) => order[a.status] - order[b.status])
    .map(
      (c) => `${c.status === 'passed' ? 'PASS' : c.status === 'failed' ? 'FAIL' : 'SKIP'}  ${c.name}${c.message ? ` — ${c.message}` : ''}`,
    )
  return [
    `conformance of provider "${report.providerId}" on the ${report.languageId} fixture: ${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.skipped} skipped`,
    ...lines,
  ].join('\n')
}
