import { readFile, stat } from 'node:fs/promises'
import * as nodePath from 'node:path'

import {
  LspError,
  assertReadable,
  extensionOf,
  isWithin,
  languageOfPath,
  normalizeRoot,
  resolveInRoot,
  resultMeta,
  type LspOperation,
  type LspProvider,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
  type LspResultMeta,
} from '@codeseam/lsp'

import { IndexAnswers } from './answers.js'
import type { OutlineCache } from './outline-cache.js'
import type { DecodedIndex, IndexDocument } from './decode.js'
import { ScipIndex } from './scip-index.js'

/** The operations an index answers; every other one is unsupported (the seam refuses it before the provider is asked). */
export const indexOperations = [
  'definition',
  'declaration',
  'typeDefinition',
  'implementation',
  'references',
  'hover',
  'documentSymbols',
  'workspaceSymbols',
] as const satisfies ReadonlyArray<LspOperation>

/** Options of {@link createIndexProvider}. */
export interface IndexProviderOptions {
  /** The decoded index (see `readScipIndex`), or its tables when they are already built. */
  readonly index: DecodedIndex | ScipIndex
  /** The workspace root the index answers for; default: the index's `project_root`. Documents are relative to it. */
  readonly root?: string
  /** Provider id (default `index`). */
  readonly id?: string
  /** Extension → language id it claims; default: the extensions of the indexed documents, by the seam's languages. */
  readonly extensions?: Readonly<Record<string, string>>
  /** Most workspace symbols in one answer (default 1000); more are cut with `meta.truncated`. */
  readonly maxWorkspaceSymbols?: number
  /** Outlines of the index's documents computed before (see `openOutlineCache`), answered from before computing one. */
  readonly outlines?: OutlineCache
}

/** A provider answering from one SCIP index, plus the pure answering core a composition can use directly. */
export interface IndexProvider extends LspProvider {
  readonly root: string
  readonly answers: IndexAnswers
}

/** The extensions of the indexed documents → the language each is, by the seam's languages (what a provider claims by default). */
export function defaultExtensions(index: ScipIndex): Record<string, string> {
  const out: Record<string, string> = {}
  for (const document of index.allDocuments()) {
    const extension = extensionOf(document.relativePath)
    if (extension === undefined || out[extension] !== undefined) continue
    const language = languageOfPath(document.relativePath)?.id ?? document.language.toLowerCase()
    if (language !== '') out[extension] = language
  }
  return out
}

/**
 * A seam provider that answers definition, declaration, type definition, implementation, references, hover,
 * document symbols and workspace symbols from a SCIP index of `root`, with no language server. It knows each
 * indexed document's path relative to the root; it does not know whether a file changed since it was indexed
 * (a composition with a live server decides which files to trust it for).
 */
export function createIndexProvider(options: IndexProviderOptions): IndexProvider {
  const index = options.index instanceof ScipIndex ? options.index : new ScipIndex(options.index)
  const rootOption = options.root ?? index.decoded.projectRoot
  if (rootOption === undefined || !nodePath.isAbsolute(rootOption)) {
    throw new LspError('INVALID_PROVIDER', 'the index names no file: project root; give the workspace root it answers for (`root`)')
  }
  const root = normalizeRoot(rootOption)
  const id = options.id ?? 'index'
  const maxSymbols = options.maxWorkspaceSymbols ?? 1000
  const readText = async (relativePath: string): Promise<string | undefined> => {
    const path = nodePath.join(root, ...relativePath.split('/'))
    try {
      assertReadable(root, path)
      return await readFile(path, 'utf8')
    } catch {
      return undefined
    }
  }
  const answers = new IndexAnswers(index, root, readText, options.outlines)
  const tool = [index.decoded.tool.name, index.decoded.tool.version].filter((p) => p !== '').join(' ') || 'a SCIP indexer'
  const meta = (started: number, overrides: Partial<LspResultMeta> = {}): LspResultMeta =>
    resultMeta(id, { elapsedMs: performance.now() - started, ...overrides })

  /** The indexed document a request is about, or a typed error: outside the root, missing, or not indexed. */
  async function documentFor(request: LspProviderRequest): Promise<IndexDocument> {
    const path =
      request.file?.path ?? ('path' in request && typeof request.path === 'string' ? resolveInRoot(request.root, request.path) : undefined)
    if (path === undefined) throw new LspError('INVALID_ARGUMENT', `${request.operation} needs a file path`)
    if (!isWithin(root, path)) {
      throw new LspError('UNAVAILABLE', `${path} is outside ${root}, the root this index answers for`, {
        data: { path, root, providerId: id },
      })
    }
    const relative = nodePath.relative(root, path).split(nodePath.sep).join('/')
    const document = answers.document(relative)
    if (document !== undefined) return document
    const exists = await stat(path).then(
      (s) => s.isFile(),
      () => false,
    )
    if (!exists) throw new LspError('NOT_FOUND', `file ${relative} does not exist`, { data: { path } })
    throw new LspError(
      'UNAVAILABLE',
      `${relative} is not in the index of ${root} (built by ${tool}): only a live server can answer for it`,
      {
        data: { path, root, providerId: id },
      },
    )
  }

  async function answer(request: LspProviderRequest, started: number): Promise<LspQueryResult> {
    if (request.operation === 'workspaceSymbols') {
      const roots = [request.root, ...(request.workspaceRoots ?? [])].map(normalizeRoot)
      if (!roots.includes(root)) return { kind: 'workspaceSymbols', symbols: [], meta: meta(started) }
      const { symbols, truncated } = await answers.workspaceSymbols(request.query, maxSymbols)
      return { kind: 'workspaceSymbols', symbols, meta: meta(started, { truncated }) }
    }
    const document = await documentFor(request)
    switch (request.operation) {
      case 'definition':
      case 'declaration':
        return { kind: 'locations', locations: (await answers.definition(document, request.position)).locations, meta: meta(started) }
      case 'references':
        return { kind: 'locations', locations: (await answers.references(document, request.position)).locations, meta: meta(started) }
      case 'implementation':
        return { kind: 'locations', locations: (await answers.implementation(document, request.position)).locations, meta: meta(started) }
      case 'typeDefinition': {
        const { locations, derived } = await answers.typeDefinition(document, request.position)
        // Built from the hover signature and the symbol table when the index records no type definitions.
        const derivation = derived === true ? { derived: { from: ['hover', 'workspaceSymbols'] as LspOperation[] } } : {}
        return { kind: 'locations', locations, meta: meta(started, derivation) }
      }
      case 'hover':
        return { kind: 'hover', hover: await answers.hover(document, request.position), meta: meta(started) }
      case 'documentSymbols':
        return { kind: 'documentSymbols', symbols: await answers.documentSymbols(document), meta: meta(started) }
      default:
        throw new LspError('UNSUPPORTED_OPERATION', `an index does not answer ${request.operation}`, { data: { providerId: id } })
    }
  }

  const status = (): LspProviderStatus => ({
    providerId: id,
    root,
    server: tool,
    state: 'ready',
    operations: [...indexOperations],
    languages: [...new Set(Object.values(extensions))],
  })
  const extensions = options.extensions ?? defaultExtensions(index)

  return {
    id,
    root,
    answers,
    extensions,
    operations: indexOperations,
    async query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
      const started = performance.now()
      if (signal.aborted) throw new LspError('CANCELLED', `${request.operation} was cancelled before the index was asked`)
      const result = await answer(request, started)
      if (signal.aborted) throw new LspError('CANCELLED', `${request.operation} was cancelled`)
      return result as LspResultFor<R['operation']>
    },
    status: () => [status()],
  }
}
