// The service is a pipeline of named stages over explicit state: the registry (registration, routes, workspaces),
// request validation, routing, fan-out, provider calls, speculation and query telemetry, each in its own file.
import { changeMarkAt } from './change-mark.js'
import { LspError } from './errors.js'
import type { LspLanguageFacts } from './language-facts.js'
import { normalizeRoot } from './paths.js'
import type {
  LspApplyEditOptions,
  LspApplyEditResult,
  LspProvider,
  LspProviderStatus,
  LspReadAlong,
  LspSpeculationRequest,
  LspSpeculationResult,
  LspWorkspace,
  ProviderId,
} from './provider.js'
import { observeQuery } from './query-telemetry.js'
import { routeQuery } from './query-routing.js'
import type { LspProviderInfo } from './provider-validation.js'
import { Registry, type Disposer, type LspWorkspaceInfo } from './registry.js'
import { RelativizerCache } from './relativizer-cache.js'
import { validateQuery } from './request-validation.js'
import { OperationRollup, type LspOperationRollup } from './rollup.js'
import { speculateAcross } from './speculation.js'
import type { LspOperation, LspQueryRequest, LspQueryResult, LspResultFor, LspResultMeta, LspWorkspaceEdit } from './vocabulary.js'

// The rewriting the service applies to every answer, for harness code that shows other text to a model.
export { relativizeResult, relativizeText, textRelativizer, type TextRelativizer } from './relative-text.js'
export { providerId } from './provider-validation.js'
export type { Disposer, LspWorkspaceInfo } from './registry.js'
export type { LspProviderInfo } from './provider-validation.js'

/**
 * `ctx.lsp`: the one service harness code talks to. A plain Promise + AbortSignal API; see `Lsp` for the
 * Effect service.
 */
export interface LspService {
  /** Reserves the provider's id and every extension atomically; throws LspError and publishes nothing on failure. */
  registerProvider(provider: LspProvider): Disposer
  /** Opens a workspace root with its file reader and edit applier. One workspace per root and per id. */
  registerWorkspace(workspace: LspWorkspace): Disposer
  /**
   * Runs one operation. Typed by operation: `references` resolves to the `locations` variant. The request's
   * file is resolved and contained once, here; `document`, a snapshot `resolveTarget` read in this call, is
   * passed to the provider so it need not read the file again.
   */
  query<R extends LspQueryRequest>(request: R & LspReadAlong, signal?: AbortSignal): Promise<LspResultFor<R['operation']>>
  /** Applies a whole edit through the applier of the workspace that owns `options.root`. */
  applyEdit(edit: LspWorkspaceEdit, options: LspApplyEditOptions & { readonly root: string }): Promise<LspApplyEditResult>
  /** Registered providers. */
  providers(): ReadonlyArray<LspProviderInfo>
  /** Open workspaces. */
  workspaces(): ReadonlyArray<LspWorkspaceInfo>
  /** The workspace for a root path or id, if open. */
  workspace(rootOrId: string): LspWorkspace | undefined
  /** The provider (and language id) that owns a file, if any. */
  providerFor(path: string): { readonly providerId: ProviderId; readonly languageId: string } | undefined
  /** Operations available for a file (empty when no provider owns it). */
  operationsFor(path: string): ReadonlyArray<LspOperation>
  /** The language facts for a language id: a provider's own first, else the seam's table (RFC 0018). */
  languageFacts(languageId: string): LspLanguageFacts | undefined
  /**
   * Diagnostics of files as an edit would leave them, computed in the servers' memory only, never on disk
   * (RFC 0018). One entry per requested path; a file whose provider cannot speculate is `unavailable`, with why.
   */
  speculate(request: LspSpeculationRequest, signal?: AbortSignal): Promise<LspSpeculationResult>
  /**
   * A mark of the workspace at `root` that changes whenever a file under it is edited, created or deleted
   * (RFC 0026), after every provider took in the changes it could have noticed; undefined when a provider keeps
   * none. Equal marks: an answer computed at the first still holds at the second.
   */
  changeMark(root: string, signal?: AbortSignal): Promise<string | undefined>
  /** Live status of every provider, per root. */
  status(): ReadonlyArray<LspProviderStatus>
  /** Subscribes to status changes of every provider; returns an unsubscribe function. */
  onStatusChange(listener: (status: LspProviderStatus) => void): () => void
  /** Per operation since the service started: calls, failures by code, p50/p95 latency (what `code_status` shows). */
  rollup(): ReadonlyArray<LspOperationRollup>
  /** Releases every registration; afterwards every call fails with DISPOSED. */
  dispose(): Promise<void>
}

/** Harness context types include this to say they carry `ctx.lsp`. */
export interface LspCapability {
  readonly lsp: LspService
}

/** Result metadata with defaults (ready, warm, not truncated); the service fills in provider id and time. */
export function resultMeta(providerId: string, overrides: Partial<LspResultMeta> = {}): LspResultMeta {
  return { providerId, status: 'ready', warm: true, truncated: false, elapsedMs: 0, ...overrides }
}

/** A query, validated and sent to its provider(s); `query` wraps it in its span, metrics and rollup. */
async function runQuery(
  registry: Registry,
  relativizers: RelativizerCache,
  request: LspQueryRequest & LspReadAlong,
  signal: AbortSignal | undefined,
): Promise<LspQueryResult> {
  registry.ensureLive()
  return routeQuery(registry, relativizers, validateQuery(request, signal), signal)
}

/** Applies a whole edit through the applier of the workspace open at `options.root`. */
async function applyEditAt(
  registry: Registry,
  edit: LspWorkspaceEdit,
  options: LspApplyEditOptions & { readonly root: string },
): Promise<LspApplyEditResult> {
  registry.ensureLive()
  const root = typeof options?.root === 'string' ? normalizeRoot(options.root) : undefined
  const workspace = root === undefined ? undefined : registry.workspaceAt(root)
  if (workspace === undefined) {
    throw new LspError('UNAVAILABLE', `no workspace is open at ${String(options?.root)}, so nothing can apply edits there`, {
      data: { open: registry.openRoots() },
    })
  }
  const { root: _root, ...applyOptions } = options
  return workspace.applyEdit(edit, applyOptions)
}

/** Creates a fresh `ctx.lsp` service with no providers and no workspaces. */
export function createLsp(): LspService {
  const registry = new Registry()
  const relativizers = new RelativizerCache()
  const rollup = new OperationRollup()
  const telemetry = { rollup, workspaceIdAt: (root: string) => registry.workspaceAt(root)?.id }
  return {
    registerProvider: (provider) => registry.registerProvider(provider),
    registerWorkspace: (workspace) => registry.registerWorkspace(workspace),
    async query<R extends LspQueryRequest>(request: R & LspReadAlong, signal?: AbortSignal): Promise<LspResultFor<R['operation']>> {
      const result = observeQuery(telemetry, request, () => runQuery(registry, relativizers, request, signal))
      return result as Promise<LspResultFor<R['operation']>>
    },
    rollup: () => rollup.snapshot(),
    applyEdit: (edit, options) => applyEditAt(registry, edit, options),
    providers: () => registry.registered().map((r) => r.info),
    workspaces: () => registry.openWorkspaces().map((w) => ({ id: w.id, root: w.root })),
    workspace: (rootOrId) => registry.workspaceById(rootOrId) ?? registry.workspaceAt(normalizeRoot(rootOrId)),
    providerFor(path) {
      const owner = registry.ownerOf(path)
      if (owner === undefined) return undefined
      return { providerId: owner.registration.info.id, languageId: owner.languageId }
    },
    operationsFor: (path) => registry.ownerOf(path)?.registration.info.operations ?? [],
    languageFacts: (languageId) => registry.languageFacts(languageId),
    async speculate(request, signal) {
      registry.ensureLive()
      return speculateAcross(registry, request, signal)
    },
    async changeMark(root, signal) {
      registry.ensureLive()
      return changeMarkAt(registry, normalizeRoot(root), signal)
    },
    status: () => registry.registered().flatMap((r) => r.provider.status?.() ?? [{ providerId: r.info.id, state: 'ready' as const }]),
    onStatusChange: (listener) => registry.onStatusChange(listener),
    dispose: () => registry.dispose(),
  }
}
