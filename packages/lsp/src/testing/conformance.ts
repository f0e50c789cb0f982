import * as nodePath from 'node:path'

import { LspError } from '../errors.js'
import { extensionOf, isWithin } from '../paths.js'
import type { LspProvider, LspWorkspace } from '../provider.js'
import { createLsp } from '../service.js'
import {
  lspOperations,
  resultKindByOperation,
  type LspDerivation,
  type LspOperation,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
} from '../vocabulary.js'
import { CheckFailure, fileChecks, kitChecks, positionChecks, workspaceChecks, type CheckContext } from './checks.js'
import type { ConformanceCheckId, ConformanceFixture } from './fixture-record.js'
import { copyFixture } from './fixture.js'
import { typeScriptFixture } from './records/typescript.js'

/** What a provider factory hands the kit for one fixture workspace. */
export interface ConformanceSubject {
  readonly provider: LspProvider
  /** The backend's workspace for the root, when it has one (checked for reads and containment). */
  readonly workspace?: LspWorkspace
  /** Stops whatever the factory started. */
  dispose?(): Promise<void> | void
}

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** Builds the provider under test for the fixture copy at `root`. */
  readonly setup: (root: string) => Promise<ConformanceSubject> | ConformanceSubject
  /** Deadline of each check, in ms (default 60 000). */
  readonly checkTimeoutMs?: number
  /** The language fixture to run on (default: the TypeScript record the kit ships, {@link typeScriptFixture}). */
  readonly fixture?: ConformanceFixture
  /**
   * A copy of the record's folder elsewhere (the record's needles still apply), e.g. shipped beside a bundle.
   * Prefer `fixture: { ...record, dir }`.
   */
  readonly fixtureDir?: string
}

/** The outcome of one check. */
export interface ConformanceCheck {
  /** Which of the record-driven checks this is (absent for the kit's own contract checks). */
  readonly id?: ConformanceCheckId
  readonly name: string
  readonly operation?: LspOperation
  readonly status: 'passed' | 'failed' | 'skipped'
  readonly message: string
}

/** The kit's report: every check with its outcome. */
export interface ConformanceReport {
  readonly providerId: string
  /** The language of the fixture record it ran on. */
  readonly languageId: string
  readonly passed: boolean
  readonly checks: ReadonlyArray<ConformanceCheck>
  readonly counts: { readonly passed: number; readonly failed: number; readonly skipped: number }
}

type KitCheck = (typeof positionChecks)[number] | (typeof fileChecks)[number] | (typeof workspaceChecks)[number]

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message)
}

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

/** An answer a provider derived (meta.derived), recorded for {@link derivedCheck}. */
interface DerivedAnswer {
  readonly operation: LspOperation
  readonly derivation: LspDerivation
}

/**
 * A derived answer (RFC 0010) must say what it was built from: native operations of the vocabulary that
 * the provider claims, never the derived operation itself; unresolved bases are names, never empty.
 */
function derivedCheck(answers: ReadonlyArray<DerivedAnswer>, claimed: ReadonlySet<LspOperation>): ConformanceCheck {
  const name = 'derived answers say which native operations they were built from'
  const problems = answers.flatMap(({ operation, derivation }) => {
    const from = Array.isArray(derivation.from) ? derivation.from : []
    return [
      ...(from.length === 0 ? [`${operation}: meta.derived.from is empty`] : []),
      ...from.filter((o) => !lspOperations.includes(o)).map((o) => `${operation}: "${String(o)}" is not an operation`),
      ...from.filter((o) => o === operation).map(() => `${operation}: derived from itself`),
      ...from
        .filter((o) => lspOperations.includes(o) && !claimed.has(o))
        .map((o) => `${operation}: built from ${o}, which the provider does not claim`),
      ...(derivation.unresolved ?? [])
        .filter((u) => typeof u !== 'string' || u.length === 0)
        .map(() => `${operation}: an unresolved base without a name`),
    ]
  })
  if (problems.length > 0) return { name, status: 'failed', message: problems.slice(0, 5).join('; ') }
  const operations = [...new Set(answers.map((a) => a.operation))]
  return {
    name,
    status: 'passed',
    message:
      answers.length === 0
        ? 'no answer was derived (every operation native)'
        : `${answers.length} derived answers: ${operations.join(', ')}`,
  }
}

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

async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(new CheckFailure(`no answer within ${ms} ms`))
    }, ms)
  })
  try {
    return await Promise.race([run(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
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

/**
 * Runs the conformance suite against a provider, on a copy of a language fixture (the TypeScript record by
 * default). Plain library: no test framework needed, so it also runs inside a VS Code extension host. Every
 * claimed operation is checked against answers located by text in the fixture, as the record describes; plus
 * registration, result kinds, containment and typed errors.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const record = options.fixture ?? typeScriptFixture
  const main = record.main
  const fixture = await copyFixture(options.fixtureDir ?? record.dir)
  const checkTimeoutMs = options.checkTimeoutMs ?? 60_000
  const checks: ConformanceCheck[] = []
  let subject: ConformanceSubject | undefined
  let providerIdText = '(unknown)'
  try {
    subject = await options.setup(fixture.root)
    const { provider } = subject
    providerIdText = String(provider.id)

    // Registration: the provider's declaration must be acceptable to the registry.
    const lsp = createLsp()
    try {
      lsp.registerProvider({ ...provider, query: provider.query.bind(provider), dispose: () => {} })
      checks.push({ name: 'registers with ctx.lsp', status: 'passed', message: `claims ${Object.keys(provider.extensions).join(' ')}` })
    } catch (error) {
      checks.push({ name: 'registers with ctx.lsp', status: 'failed', message: error instanceof Error ? error.message : String(error) })
    } finally {
      await lsp.dispose()
    }

    const claimed = new Set(provider.operations)
    const outside: string[] = []
    const languageIdFor = (path: string) => {
      const extension = extensionOf(path) ?? ''
      const entry = Object.entries(provider.extensions).find(
        ([key]) => key.toLowerCase() === extension || `.${key.toLowerCase()}` === extension,
      )
      return entry?.[1] ?? record.languageId
    }
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
    const context: CheckContext = { fixture, root: fixture.root, query }

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

    checks.push(derivedCheck(derived, claimed))
    checks.push(
      outside.length === 0
        ? { name: 'no result points outside the workspace root', status: 'passed', message: 'all paths contained' }
        : { name: 'no result points outside the workspace root', status: 'failed', message: outside.slice(0, 5).join('; ') },
    )

    // Typed errors: a failure must be an LspError, never an empty result or a foreign error.
    const probe = provider.operations.includes('definition') ? 'definition' : provider.operations.includes('hover') ? 'hover' : undefined
    if (probe === undefined) {
      checks.push({
        name: 'a missing file fails with a typed LspError',
        status: 'skipped',
        message: 'provider claims neither definition nor hover',
      })
    } else {
      const missingPath = fixture.path(nodePath.posix.join(nodePath.posix.dirname(main), `does-not-exist${nodePath.posix.extname(main)}`))
      try {
        const result = await withTimeout(checkTimeoutMs, (signal) =>
          provider.query(
            {
              operation: probe,
              root: fixture.root,
              path: missingPath,
              position: { line: 0, character: 0 },
              languageId: languageIdFor(missingPath),
            },
            signal,
          ),
        )
        checks.push({
          name: 'a missing file fails with a typed LspError',
          status: 'failed',
          message: `answered ${JSON.stringify(result).slice(0, 120)} instead of failing`,
        })
      } catch (error) {
        checks.push(
          error instanceof LspError
            ? { name: 'a missing file fails with a typed LspError', status: 'passed', message: error.code }
            : {
                name: 'a missing file fails with a typed LspError',
                status: 'failed',
                message: `threw an untyped error: ${error instanceof Error ? error.message : String(error)}`,
              },
        )
      }
      const aborted = new AbortController()
      aborted.abort()
      try {
        await withTimeout(checkTimeoutMs, () =>
          provider.query(
            {
              operation: probe,
              root: fixture.root,
              path: fixture.path(main),
              position: { line: 0, character: 0 },
              languageId: languageIdFor(fixture.path(main)),
            },
            aborted.signal,
          ),
        )
        checks.push({ name: 'an aborted request fails with CANCELLED', status: 'failed', message: 'answered despite an aborted signal' })
      } catch (error) {
        checks.push(
          error instanceof LspError && error.code === 'CANCELLED'
            ? { name: 'an aborted request fails with CANCELLED', status: 'passed', message: 'CANCELLED' }
            : {
                name: 'an aborted request fails with CANCELLED',
                status: 'failed',
                message: error instanceof LspError ? `got ${error.code}` : `threw an untyped error: ${String(error)}`,
              },
        )
      }
    }

    if (subject.workspace !== undefined) {
      const workspace = subject.workspace
      try {
        const snapshot = await workspace.readFile(fixture.path(main))
        expect(snapshot.text === (await fixture.text(main)), 'readFile returned different text than the file holds')
        let escaped = false
        try {
          await workspace.readFile(fixture.path('../../etc/passwd'))
          escaped = true
        } catch (error) {
          expect(error instanceof LspError, 'reading outside the root must fail with an LspError')
        }
        expect(!escaped, 'the workspace read a file outside its root')
        checks.push({ name: 'workspace reads files and refuses paths outside the root', status: 'passed', message: 'ok' })
      } catch (error) {
        checks.push({
          name: 'workspace reads files and refuses paths outside the root',
          status: 'failed',
          message: error instanceof Error ? error.message : String(error),
        })
      }
    }
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
