import * as nodePath from 'node:path'

import { LspError } from '../errors.js'
import type { LspProvider, LspWorkspace } from '../provider.js'
import { createLsp } from '../service.js'
import { lspOperations, type LspDerivation, type LspOperation } from '../vocabulary.js'
import { CheckFailure } from './checks.js'
import type { ConformanceCheck } from './conformance-types.js'
import type { FixtureWorkspace } from './fixture.js'

// The kit's own contract checks, beside the record-driven ones: registration, derived answers, containment,
// typed errors and the workspace.

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message)
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
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

/** An answer a provider derived (meta.derived), recorded for {@link derivedCheck}. */
export interface DerivedAnswer {
  readonly operation: LspOperation
  readonly derivation: LspDerivation
}

/**
 * A derived answer (RFC 0010) must say what it was built from: native operations of the vocabulary that
 * the provider claims, never the derived operation itself; unresolved bases are names, never empty.
 */
export function derivedCheck(answers: ReadonlyArray<DerivedAnswer>, claimed: ReadonlySet<LspOperation>): ConformanceCheck {
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

/** Registration: the provider's declaration must be acceptable to the registry. */
export async function registrationCheck(provider: LspProvider): Promise<ConformanceCheck> {
  const lsp = createLsp()
  try {
    lsp.registerProvider({ ...provider, query: provider.query.bind(provider), dispose: () => {} })
    return { name: 'registers with ctx.lsp', status: 'passed', message: `claims ${Object.keys(provider.extensions).join(' ')}` }
  } catch (error) {
    return { name: 'registers with ctx.lsp', status: 'failed', message: messageOf(error) }
  } finally {
    await lsp.dispose()
  }
}

/** No result may point outside the workspace root. */
export function containmentCheck(outside: ReadonlyArray<string>): ConformanceCheck {
  return outside.length === 0
    ? { name: 'no result points outside the workspace root', status: 'passed', message: 'all paths contained' }
    : { name: 'no result points outside the workspace root', status: 'failed', message: outside.slice(0, 5).join('; ') }
}

/** What the typed-error checks need: the provider, the fixture copy and its main file. */
export interface TypedErrorSubject {
  readonly provider: LspProvider
  readonly fixture: FixtureWorkspace
  readonly main: string
  readonly checkTimeoutMs: number
  readonly languageIdFor: (path: string) => string
}

/** Typed errors: a failure must be an LspError, never an empty result or a foreign error. */
export async function typedErrorChecks(subject: TypedErrorSubject): Promise<ConformanceCheck[]> {
  const { provider } = subject
  const probe = provider.operations.includes('definition') ? 'definition' : provider.operations.includes('hover') ? 'hover' : undefined
  if (probe === undefined) {
    return [
      {
        name: 'a missing file fails with a typed LspError',
        status: 'skipped',
        message: 'provider claims neither definition nor hover',
      },
    ]
  }
  return [await missingFileCheck(subject, probe), await abortedCheck(subject, probe)]
}

async function missingFileCheck(
  { provider, fixture, main, checkTimeoutMs, languageIdFor }: TypedErrorSubject,
  probe: 'definition' | 'hover',
): Promise<ConformanceCheck> {
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
    return {
      name: 'a missing file fails with a typed LspError',
      status: 'failed',
      message: `answered ${JSON.stringify(result).slice(0, 120)} instead of failing`,
    }
  } catch (error) {
    return error instanceof LspError
      ? { name: 'a missing file fails with a typed LspError', status: 'passed', message: error.code }
      : {
          name: 'a missing file fails with a typed LspError',
          status: 'failed',
          message: `threw an untyped error: ${messageOf(error)}`,
        }
  }
}

async function abortedCheck(
  { provider, fixture, main, checkTimeoutMs, languageIdFor }: TypedErrorSubject,
  probe: 'definition' | 'hover',
): Promise<ConformanceCheck> {
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
    return { name: 'an aborted request fails with CANCELLED', status: 'failed', message: 'answered despite an aborted signal' }
  } catch (error) {
    return error instanceof LspError && error.code === 'CANCELLED'
      ? { name: 'an aborted request fails with CANCELLED', status: 'passed', message: 'CANCELLED' }
      : {
          name: 'an aborted request fails with CANCELLED',
          status: 'failed',
          message: error instanceof LspError ? `got ${error.code}` : `threw an untyped error: ${String(error)}`,
        }
  }
}

/** The backend's workspace reads the fixture's files and refuses a path outside the root. */
export async function workspaceCheck(workspace: LspWorkspace, fixture: FixtureWorkspace, main: string): Promise<ConformanceCheck> {
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
    return { name: 'workspace reads files and refuses paths outside the root', status: 'passed', message: 'ok' }
  } catch (error) {
    return {
      name: 'workspace reads files and refuses paths outside the root',
      status: 'failed',
      message: messageOf(error),
    }
  }
}
