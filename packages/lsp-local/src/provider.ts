import {
  LspError,
  operationInfo,
  type LspLanguageFacts,
  type LspOperation,
  type LspProvider,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
  type LspResultMeta,
  type LspSpeculationRequest,
  type LspSpeculationResult,
} from '@codeseam/lsp'

import { Composition } from './companions/compose.js'
import { answeredByDerivation, derive, derivedFrom, withDerived } from './features/derived.js'
import { takeInForMark } from './features/disk-changes.js'
import { fileQuery, refuseForLanguage } from './features/file-query.js'
import type { Serving } from './features/serving.js'
import { speculate } from './features/speculate.js'
import { workspaceDiagnostics } from './features/workspace-diagnostics.js'
import { workspaceSymbols } from './features/workspace-symbols.js'
import { recordFor } from './languages/index.js'
import type { HostCore } from './pool/host-core.js'
import { languageLacks } from './profile/profile-operations.js'
import type { ServerProfile } from './profile/profiles.js'

/** A provider's change mark for the changes its workspace counted (RFC 0026). */
export const changeMarkOf = (changes: number): string => String(changes)

/** The seam provider for one profile: routes each request to the (project root, profile) server. */
export class ProfileProvider implements LspProvider, Serving {
  readonly id: string
  readonly extensions: Readonly<Record<string, string>>
  readonly fileNames: Readonly<Record<string, string>>
  readonly interpreters: Readonly<Record<string, string>>
  readonly operations: ReadonlyArray<LspOperation>
  /** The language facts of the profile's record (the seam's entries for the built-in servers; RFC 0018). */
  readonly languageFacts: ReadonlyArray<LspLanguageFacts>

  constructor(
    readonly profile: ServerProfile,
    readonly host: HostCore,
    operations: ReadonlyArray<LspOperation>,
    /** The companions answering some operations beside the server (see companions/compose.ts). */
    readonly composition: Composition = new Composition(`local:${profile.id}`, []),
  ) {
    this.id = `local:${profile.id}`
    this.extensions = profile.extensions
    this.fileNames = profile.fileNames ?? {}
    this.interpreters = profile.interpreters ?? {}
    // What the server lacks but can be built from what it has is declared too, and derived (RFC 0010).
    // Not what the language itself lacks (a Dockerfile has no types to build a hierarchy of).
    const support = recordFor(profile)?.support
    this.operations = [...operations, ...derivedFrom(operations).filter((op) => support === undefined || !languageLacks(support, op))]
    this.languageFacts = recordFor(profile)?.grammar ?? []
  }

  status(): ReadonlyArray<LspProviderStatus> {
    const companions = this.composition.summary
    const statuses = this.host.statusOf(this.profile).map((status) => withDerived(status, this.operations))
    return companions.length === 0 ? statuses : statuses.map((status) => ({ ...status, companions }))
  }

  onStatusChange(listener: (status: LspProviderStatus) => void): () => void {
    return this.host.onStatus(this.profile.id, listener)
  }

  async query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
    // What the record refuses for the file's language is refused for the caller's question, before any server starts
    // (a question cancelled already is cancelled, whatever it asks).
    if (!signal.aborted) refuseForLanguage(this.profile, request)
    // Operations a companion takes part in are composed there; the server answers its share through queryNative.
    const composed = this.composition.query(request, signal, (native) => this.queryNative(native, signal))
    return (await (composed ?? this.queryNative(request, signal))) as LspResultFor<R['operation']>
  }

  /**
   * The workspace's change count (RFC 0026), after this profile's running servers (and its companions') took in
   * every change their watch and open documents show by now.
   */
  async changeMark(root: string): Promise<string> {
    const workspace = this.host.workspaceFor(root)
    const profiles = new Map(
      [this.profile, ...this.host.config.profiles.filter((p) => this.profile.companions?.some((c) => c.id === p.id))].map((p) => [p.id, p]),
    )
    await Promise.all(
      this.host.liveServersUnder(workspace.root).flatMap((server) => {
        const profile = profiles.get(server.spec.profileId)
        return profile === undefined ? [] : [takeInForMark(this.host, profile, workspace, server)]
      }),
    )
    return changeMarkOf(workspace.changesFor(profiles.keys()))
  }

  /** Diagnostics of an edit computed in the servers' memory only, behind each server's gate (RFC 0018). */
  speculate(request: LspSpeculationRequest, signal: AbortSignal): Promise<LspSpeculationResult> {
    return speculate(this, this.host.workspaceFor(request.root), request, signal)
  }

  /** The profile's own server alone. */
  async queryNative<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
    if (this.profile.unavailable !== undefined) {
      // A whole-workspace question to a server that is not installed: only a root holding files of its
      // languages is missing something; elsewhere the empty answer is the whole truth.
      const hasPath = 'path' in request && typeof request.path === 'string'
      const scope = operationInfo[request.operation].scope
      if (
        (scope === 'workspace' || (scope === 'fileOrWorkspace' && !hasPath)) &&
        !(await this.host.hasEligibleFiles(this.host.workspaceFor(request.root), this.profile))
      ) {
        return emptyWorkspaceAnswer(this.id, request.operation) as LspResultFor<R['operation']>
      }
      throw new LspError('UNAVAILABLE', `the ${this.profile.id} language server is unavailable: ${this.profile.unavailable}`, {
        data: { profile: this.profile.id, ...(this.profile.install === undefined ? {} : { install: this.profile.install }) },
      })
    }
    const started = performance.now()
    const deadline = Date.now() + this.host.config.requestTimeoutMs
    const workspace = this.host.workspaceFor(request.root)
    const scope = operationInfo[request.operation].scope
    const hasPath = 'path' in request && typeof request.path === 'string'
    let result: LspQueryResult
    if (scope === 'workspace' || (scope === 'fileOrWorkspace' && !hasPath)) {
      result =
        request.operation === 'workspaceSymbols'
          ? await workspaceSymbols(this, workspace, request.query, deadline, signal, request.workspaceRoots)
          : await workspaceDiagnostics(
              this,
              workspace,
              request as LspProviderRequest<Extract<LspQueryRequest, { operation: 'diagnostics' }>>,
              deadline,
              signal,
            )
    } else {
      // The seam resolved and contained the file for this root already (request.file); only a request made
      // without an open workspace at its root is contained here.
      const target = scope === 'item' ? (request as { item: { path: string } }).item.path : (request as { path: string }).path
      const path = request.file?.root === workspace.root ? request.file.path : workspace.containment.input(target)
      // An operation the server lacks is derived from the ones it has (type hierarchy, implementation).
      result = (await answeredByDerivation(this, workspace, request, path, deadline, signal))
        ? await derive(this, workspace, request, (asked, askedSignal) => this.queryNative(asked, askedSignal), signal)
        : await fileQuery(this, workspace, request, path, deadline, signal)
    }
    // A memory restart since the last result: say so once, in this result's meta.
    const degraded = this.host.takeNotices(workspace.root, this.profile.id).length > 0
    return {
      ...result,
      meta: { ...result.meta, ...(degraded ? { status: 'degraded' as const } : {}), elapsedMs: performance.now() - started },
    } as LspResultFor<R['operation']>
  }
}

/** The answer of a profile with nothing to serve under the root. */
function emptyWorkspaceAnswer(providerId: string, operation: LspOperation): LspQueryResult {
  const meta: LspResultMeta = { providerId, status: 'ready', warm: true, truncated: false, elapsedMs: 0 }
  return operation === 'workspaceSymbols'
    ? { kind: 'workspaceSymbols', symbols: [], meta }
    : { kind: 'diagnostics', files: [], coverage: { analysed: [], eligible: 0, complete: true }, meta }
}
