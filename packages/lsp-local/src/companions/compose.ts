import {
  isLspError,
  toLspError,
  type LspFileDiagnostics,
  type LspOperation,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultMeta,
} from '@codeseam/lsp'

import type { BoundCompanion, Companion } from './companion.js'

type Result<K extends LspQueryResult['kind']> = Extract<LspQueryResult, { kind: K }>
type Failure = NonNullable<LspResultMeta['failures']>[number]
type Native = (request: LspProviderRequest<LspQueryRequest>) => Promise<LspQueryResult>

/**
 * A profile's companions and how each operation they share with the server is composed: `format` and
 * `documentSymbols` by the companion alone; `codeActions` and `diagnostics` merged (the server's and each companion's, every diagnostic
 * keeping its `source`); `resolveCodeAction` by whoever listed the action (a companion's action ids carry its
 * id). The server answers everything else natively. A companion's failure beside a server's answer is
 * reported in `meta.failures`; alone, it is the error.
 */
export class Composition {
  constructor(
    private readonly providerId: string,
    private readonly bound: ReadonlyArray<BoundCompanion>,
  ) {}

  /** For the status: which companion answers which operations. */
  get summary(): ReadonlyArray<{ readonly id: string; readonly operations: ReadonlyArray<LspOperation> }> {
    return this.bound.map((b) => ({ id: b.companion.id, operations: b.operations }))
  }

  /** The operations some companion answers. */
  get operations(): ReadonlyArray<LspOperation> {
    return [...new Set(this.bound.flatMap((b) => b.operations))]
  }

  /** The composed answer, or undefined when no companion takes part in this request (the server answers it alone). */
  query(request: LspProviderRequest<LspQueryRequest>, signal: AbortSignal, native: Native): Promise<LspQueryResult> | undefined {
    const companions = this.bound
      .filter((b) => (b.operations as ReadonlyArray<LspOperation>).includes(request.operation))
      .map((b) => b.companion)
    if (companions.length === 0) return undefined
    switch (request.operation) {
      case 'format':
      case 'documentSymbols':
        return this.own(companions[0]!.query(request, signal))
      case 'resolveCodeAction': {
        const owner = companions.find((c) => request.actionId.startsWith(`${c.id}:`))
        if (owner === undefined) return undefined
        return this.own(owner.query({ ...request, actionId: request.actionId.slice(owner.id.length + 1) }, signal))
      }
      case 'codeActions':
        return this.codeActions(request, signal, native, companions)
      case 'diagnostics':
        return typeof request.path === 'string'
          ? this.fileDiagnostics(request, signal, native, companions)
          : this.workspaceDiagnostics(request, signal, native, companions)
      default:
        return undefined
    }
  }

  private async own(result: Promise<LspQueryResult>): Promise<LspQueryResult> {
    const answer = await result
    return { ...answer, meta: { ...answer.meta, providerId: this.providerId } }
  }

  private async codeActions(
    request: LspProviderRequest<LspQueryRequest>,
    signal: AbortSignal,
    native: Native,
    companions: ReadonlyArray<Companion>,
  ): Promise<LspQueryResult> {
    // A server that does not offer code actions leaves them to the companions.
    const primary = native(request).catch((error: unknown) => {
      if (isLspError(error) && error.code === 'UNSUPPORTED_OPERATION') return undefined
      throw error
    })
    const answers = await Promise.allSettled(companions.map((c) => c.query(request, signal)))
    const server = (await primary) as Result<'codeActions'> | undefined
    const failures: Failure[] = []
    const actions = [...(server?.actions ?? [])]
    answers.forEach((answer, i) => {
      const companion = companions[i]!
      if (answer.status === 'fulfilled') {
        for (const action of (answer.value as Result<'codeActions'>).actions)
          actions.push({ ...action, id: `${companion.id}:${action.id}` })
      } else {
        failures.push(failureOf(companion, answer.reason))
      }
    })
    // Nobody answered: the failure is the answer.
    const rejected = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected')
    if (server === undefined && failures.length === companions.length && rejected !== undefined) throw rejected.reason
    const meta =
      server?.meta ?? (answers.find((a) => a.status === 'fulfilled') as PromiseFulfilledResult<LspQueryResult> | undefined)?.value.meta
    return { kind: 'codeActions', actions, meta: withFailures({ ...meta!, providerId: this.providerId }, failures) }
  }

  private async fileDiagnostics(
    request: LspProviderRequest<LspQueryRequest>,
    signal: AbortSignal,
    native: Native,
    companions: ReadonlyArray<Companion>,
  ): Promise<LspQueryResult> {
    const answers = Promise.allSettled(companions.map((c) => c.query(request, signal)))
    const server = (await native(request)) as Result<'diagnostics'>
    const failures: Failure[] = []
    const added: LspFileDiagnostics[] = []
    ;(await answers).forEach((answer, i) => {
      if (answer.status === 'fulfilled') added.push(...(answer.value as Result<'diagnostics'>).files)
      else failures.push(failureOf(companions[i]!, answer.reason))
    })
    return { ...server, files: mergeFiles(server.files, added), meta: withFailures(server.meta, failures) }
  }

  /** The server's bounded workspace diagnostics, with each companion's for exactly the files the server analysed (its coverage holds for both). */
  private async workspaceDiagnostics(
    request: LspProviderRequest<LspQueryRequest>,
    signal: AbortSignal,
    native: Native,
    companions: ReadonlyArray<Companion>,
  ): Promise<LspQueryResult> {
    const server = (await native(request)) as Result<'diagnostics'>
    const paths = [...new Set([...server.coverage.analysed, ...server.files.map((f) => f.path)])]
    const failures: Failure[] = []
    const added: LspFileDiagnostics[] = []
    for (const companion of companions) {
      let failed: { count: number; error: unknown } | undefined
      for (const path of paths) {
        try {
          const answer = (await companion.query(
            { operation: 'diagnostics', root: request.root, path, languageId: request.languageId },
            signal,
          )) as Result<'diagnostics'>
          added.push(...answer.files)
        } catch (error) {
          if (signal.aborted) throw error
          failed = { count: (failed?.count ?? 0) + 1, error: failed?.error ?? error }
        }
      }
      if (failed !== undefined) {
        const failure = failureOf(companion, failed.error)
        failures.push({ ...failure, message: `${failure.message} (${failed.count} of ${paths.length} files)` })
      }
    }
    return {
      ...server,
      files: mergeFiles(server.files, added).filter((f) => f.diagnostics.length > 0 || f.freshness !== 'current'),
      meta: withFailures(server.meta, failures),
    }
  }
}

/** The server's files with the companions' diagnostics added to the same file (keeping the server's version and freshness). */
function mergeFiles(server: ReadonlyArray<LspFileDiagnostics>, added: ReadonlyArray<LspFileDiagnostics>): LspFileDiagnostics[] {
  const byPath = new Map(server.map((f) => [f.path, f]))
  for (const file of added) {
    const known = byPath.get(file.path)
    byPath.set(file.path, known === undefined ? file : { ...known, diagnostics: [...known.diagnostics, ...file.diagnostics] })
  }
  return [...byPath.values()]
}

function failureOf(companion: Companion, error: unknown): Failure {
  const typed = toLspError(error, 'SERVER_ERROR', `the ${companion.id} companion failed`)
  return { providerId: companion.id, code: typed.code, message: typed.message }
}

function withFailures(meta: LspResultMeta, failures: ReadonlyArray<Failure>): LspResultMeta {
  return failures.length === 0 ? meta : { ...meta, failures: [...(meta.failures ?? []), ...failures] }
}
