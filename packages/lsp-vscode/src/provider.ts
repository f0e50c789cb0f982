import {
  LspError,
  canonicalPath,
  normalizeRoot,
  lspOperations,
  toLspError,
  type LspOperation,
  type LspProvider,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
} from '@codeseam/lsp'
import type * as vscode from 'vscode'

import { Containment, containedPath } from './containment.js'
import { Deadline } from './deadline.js'
import { derivationHost, derivationPlan, derive, type DerivationOptions } from './derivation.js'
import { DocumentTracker } from './documents.js'
import { checkRootIsOpen, fileWorkspaceFolders } from './folders.js'
import { languageExtensions, type LanguageExtensionOptions } from './languages.js'
import { completion, inlayHints } from './operations/assist.js'
import { diagnostics } from './operations/diagnostics.js'
import { codeActions, format, prepareRename, rename, resolveCodeAction } from './operations/edits.js'
import { calls, prepareHierarchy, relatedTypes } from './operations/hierarchy.js'
import { hover, navigate, signatureHelp } from './operations/navigation.js'
import { documentSymbols, workspaceSymbols } from './operations/symbols.js'
import { RecentMap, type ListedCodeAction, type OperationContext } from './operation-context.js'

/** Options for {@link createVsCodeProvider}. */
export interface VsCodeProviderOptions extends LanguageExtensionOptions, DerivationOptions {
  /** Provider id in the registry. Default `vscode`. */
  readonly id?: string
  /**
   * Operations VS Code's providers answer. Default: every seam operation (VS Code answers empty where no
   * extension helps). Derivable operations left out are still offered, derived from these (`derive`).
   */
  readonly operations?: ReadonlyArray<LspOperation>
  /** Total budget of one operation, retries included. Default 30 000 ms. */
  readonly timeoutMs?: number
  /**
   * Longest wait for a language extension to analyse the first document of its language (diagnostics
   * reported and settled), and before retrying an empty answer from a cold language. Default 10 000 ms.
   */
  readonly warmupWaitMs?: number
  /** How many listed code actions VS Code resolves eagerly. Default 20. */
  readonly codeActionResolveCount?: number
  /**
   * Diagnostics arrive in rounds; an answer waits until a document's reports were quiet this long (within
   * the request's `waitMs`). Default 750 ms.
   */
  readonly diagnosticsSettleMs?: number
  /**
   * Show a document (preview tab, focus kept) before asking for its diagnostics: VS Code's TypeScript
   * support only analyses documents shown in an editor. Default true.
   */
  readonly revealForDiagnostics?: boolean
  /**
   * Refuse roots outside the window's workspace folders (UNAVAILABLE). Default true. Language extensions
   * also answer for files outside any folder; turn this off to serve such a root (answers stay contained).
   */
  readonly requireOpenFolder?: boolean
}

/** An {@link LspProvider} backed by VS Code, with a `dispose` that stops listening to VS Code events. */
export interface VsCodeProvider extends LspProvider {
  readonly extensions: Readonly<Record<string, string>>
}

type Handler = (context: OperationContext, request: LspProviderRequest) => Promise<LspQueryResult>

/**
 * One handler per operation. `satisfies` makes adding a seam operation a compile error here until it is
 * handled.
 */
function handlers(extensions: ReadonlyArray<string>): { readonly [O in LspOperation]: Handler } {
  const as = <O extends LspOperation>(
    run: (c: OperationContext, r: LspProviderRequest<Extract<LspQueryRequest, { operation: O }>>) => Promise<LspResultFor<O>>,
  ) => run as unknown as Handler
  return {
    definition: as<'definition'>(navigate),
    typeDefinition: as<'typeDefinition'>(navigate),
    declaration: as<'declaration'>(navigate),
    implementation: as<'implementation'>(navigate),
    references: as<'references'>(navigate),
    hover: as<'hover'>(hover),
    signatureHelp: as<'signatureHelp'>(signatureHelp),
    documentSymbols: as<'documentSymbols'>(documentSymbols),
    workspaceSymbols: as<'workspaceSymbols'>(workspaceSymbols),
    prepareCallHierarchy: as<'prepareCallHierarchy'>((c, r) => prepareHierarchy(c, 'call', r)),
    incomingCalls: as<'incomingCalls'>((c, r) => calls(c, 'incoming', r)),
    outgoingCalls: as<'outgoingCalls'>((c, r) => calls(c, 'outgoing', r)),
    prepareTypeHierarchy: as<'prepareTypeHierarchy'>((c, r) => prepareHierarchy(c, 'type', r)),
    supertypes: as<'supertypes'>((c, r) => relatedTypes(c, 'supertypes', r)),
    subtypes: as<'subtypes'>((c, r) => relatedTypes(c, 'subtypes', r)),
    diagnostics: as<'diagnostics'>((c, r) => diagnostics(c, r, extensions)),
    inlayHints: as<'inlayHints'>(inlayHints),
    completion: as<'completion'>(completion),
    codeActions: as<'codeActions'>(codeActions),
    prepareRename: as<'prepareRename'>(prepareRename),
    rename: as<'rename'>(rename),
    format: as<'format'>(format),
    resolveCodeAction: as<'resolveCodeAction'>(resolveCodeAction),
  }
}

/**
 * The request with its path contained in the root: a path that is a link out of the root is refused before
 * VS Code opens (and reads) it. The seam resolved it for this root already (request.file); it is contained
 * here only without that.
 */
function withContainedPath(request: LspProviderRequest, root: string): LspProviderRequest {
  if (!('path' in request) || typeof request.path !== 'string') return request
  const path = request.file?.root === root ? request.file.lexical : containedPath(root, request.path)
  return { ...request, path } as LspProviderRequest
}

function hasItems(result: LspQueryResult): boolean {
  return result.kind === 'hierarchyItems' && result.items.length > 0
}

/**
 * Creates a provider that answers seam queries through VS Code's language features: whatever language
 * extensions the user has installed, over VS Code's buffers (unsaved edits included). Must run inside a
 * VS Code extension host.
 */
export function createVsCodeProvider(options: VsCodeProviderOptions = {}): VsCodeProvider {
  const id = options.id ?? 'vscode'
  const extensions = languageExtensions(options)
  if (Object.keys(extensions).length === 0) {
    throw new LspError(
      'INVALID_PROVIDER',
      `VS Code knows no file extension for the languages ${JSON.stringify(options.languages ?? [])}; pass \`extensions\` explicitly`,
    )
  }
  const native = [...(options.operations ?? lspOperations)]
  const plan = derivationPlan(native, options)
  const timeoutMs = options.timeoutMs ?? 30_000
  const documents = new DocumentTracker()
  const warmLanguages = new Set<string>()
  const warmUpTried = new Set<string>()
  const hierarchyItems = new RecentMap<string, vscode.CallHierarchyItem | vscode.TypeHierarchyItem>(512)
  const listedActions = new RecentMap<string, ListedCodeAction>(256)
  const table = handlers(Object.keys(extensions))
  let disposed = false

  /** The adapter's native path: one VS Code handler, within the operation's deadline. Never derives. */
  const run = async (request: LspProviderRequest, root: string, deadline: Deadline): Promise<LspQueryResult> => {
    const context: OperationContext = {
      providerId: id,
      root,
      languageId: request.languageId,
      deadline,
      containment: new Containment(root),
      documents,
      warmLanguages,
      warmUpTried,
      warmupWaitMs: options.warmupWaitMs ?? 10_000,
      hierarchyItems,
      codeActions: listedActions,
      codeActionResolveCount: options.codeActionResolveCount ?? 20,
      diagnosticsSettleMs: options.diagnosticsSettleMs ?? 750,
      revealForDiagnostics: options.revealForDiagnostics ?? true,
    }
    return table[request.operation](context, withContainedPath(request, root))
  }

  return {
    id,
    extensions,
    operations: plan.operations,
    async query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
      if (disposed) throw new LspError('DISPOSED', `provider "${id}" was disposed`)
      if (signal.aborted) throw new LspError('CANCELLED', `${request.operation} was cancelled before it started`)
      // Canonical, like the workspaces' roots, so symbolic links are judged by where they really lead.
      const root = canonicalPath(normalizeRoot(request.root))
      if (options.requireOpenFolder !== false) checkRootIsOpen(root)
      // One budget for the whole operation, every native query of a derivation included.
      const deadline = new Deadline(request.operation, timeoutMs, signal)
      const native = (asked: LspProviderRequest) => run(asked, root, deadline)
      try {
        const route = plan.route(request)
        if (route === 'native') return (await native(request)) as LspResultFor<R['operation']>
        const contained = withContainedPath(request, root)
        const derived = () => derive(contained, derivationHost(id, extensions, contained, root, deadline, native))
        if (route === 'derive') return (await derived()) as LspResultFor<R['operation']>
        // VS Code first; no item where a derivation finds a type means no provider answered for it.
        const answer = await native(request)
        if (hasItems(answer)) return answer as LspResultFor<R['operation']>
        const fallback = await derived()
        return (hasItems(fallback) ? fallback : answer) as LspResultFor<R['operation']>
      } catch (error) {
        throw toLspError(error, 'SERVER_ERROR', `VS Code failed on ${request.operation}`)
      }
    },
    status(): ReadonlyArray<LspProviderStatus> {
      return fileWorkspaceFolders().map((folder) => ({
        providerId: id,
        root: folder.root,
        server: 'vscode',
        state: disposed ? 'unavailable' : warmLanguages.size > 0 ? 'ready' : 'starting',
        operations: native,
        ...(plan.derivedOperations.length > 0 ? { derivedOperations: plan.derivedOperations } : {}),
        languages: [...new Set(Object.values(extensions))],
      }))
    },
    dispose() {
      disposed = true
      documents.dispose()
    },
  }
}
