import { LspError, toLspError } from './errors.js'
import { isWithin, normalizeRoot, resolveInRoot } from './paths.js'
import type { LspSpeculatedFile, LspSpeculationRequest, LspSpeculationResult } from './provider.js'
import type { Registration, Registry } from './registry.js'
import { workspaceRootsOf } from './provider-call.js'

/*
 * The speculation stage (RFC 0018): diagnostics of files as an edit would leave them, the check split by the
 * provider that owns each file; what no provider can check is said so, file by file.
 */

/** The files one provider is asked to check: the edited documents it owns, and the paths it reports on. */
interface SpeculationGroup {
  readonly documents: LspSpeculationRequest['documents'][number][]
  readonly paths: string[]
}

/** A speculative check split by owner: the paths asked for, each provider's group, and what none can check. */
interface SpeculationPlan {
  readonly paths: ReadonlyArray<string>
  readonly groups: ReadonlyMap<Registration, SpeculationGroup>
  readonly unchecked: ReadonlyMap<string, LspSpeculatedFile>
}

/** Splits a request's documents and paths (each contained to `root`) by the provider that owns each file. */
function planSpeculation(registry: Registry, root: string, request: LspSpeculationRequest): SpeculationPlan {
  const inside = (path: string): string => {
    const absolute = resolveInRoot(root, path)
    if (!isWithin(root, absolute)) throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is outside the workspace ${root}`)
    return absolute
  }
  const groups = new Map<Registration, SpeculationGroup>()
  const group = (registration: Registration) => {
    let known = groups.get(registration)
    if (known === undefined) groups.set(registration, (known = { documents: [], paths: [] }))
    return known
  }
  const unchecked = new Map<string, LspSpeculatedFile>()
  for (const document of request.documents) {
    const owner = registry.ownerOf(inside(document.path))
    if (owner !== undefined) group(owner.registration).documents.push({ path: inside(document.path), text: document.text })
  }
  const paths = [...new Set(request.paths.map(inside))]
  for (const path of paths) {
    const owner = registry.ownerOf(path)
    if (owner === undefined) {
      unchecked.set(path, { path, freshness: 'unavailable', diagnostics: [], note: 'no language provider serves this file' })
    } else if (owner.registration.provider.speculate === undefined) {
      unchecked.set(path, {
        path,
        freshness: 'unavailable',
        diagnostics: [],
        note: `provider "${owner.registration.info.id}" cannot check an edit before it is written`,
      })
    } else group(owner.registration).paths.push(path)
  }
  return { paths, groups, unchecked }
}

/** Asks one provider to check its group; a failure other than cancellation marks its files unavailable, with why. */
async function askProvider(
  registration: Registration,
  group: SpeculationGroup,
  root: string,
  waitMs: LspSpeculationRequest['waitMs'],
  signal: AbortSignal,
  workspaceRoots: ReadonlyArray<string>,
): Promise<ReadonlyArray<LspSpeculatedFile>> {
  try {
    const request = { root, documents: group.documents, paths: group.paths, waitMs, workspaceRoots }
    return (await registration.provider.speculate!(request, signal)).files
  } catch (cause) {
    const error = toLspError(cause, 'SERVER_ERROR', 'speculate')
    if (error.code === 'CANCELLED' || signal.aborted) throw error
    return group.paths.map((path): LspSpeculatedFile => ({
      path,
      freshness: 'unavailable',
      diagnostics: [],
      note: `${error.code}: ${error.message}`,
    }))
  }
}

/** Splits a speculative check by the provider that owns each file; what no provider can check is said so. */
export async function speculateAcross(
  registry: Registry,
  request: LspSpeculationRequest,
  signal: AbortSignal | undefined,
): Promise<LspSpeculationResult> {
  const workspace = registry.workspaceAt(normalizeRoot(request.root))
  if (workspace === undefined) throw new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`)
  const root = workspace.root
  const { paths, groups, unchecked } = planSpeculation(registry, root, request)
  const controller = new AbortController()
  const abort = () => controller.abort(signal?.reason)
  if (signal?.aborted === true) abort()
  signal?.addEventListener('abort', abort, { once: true })
  try {
    const answers = await Promise.all(
      [...groups]
        .filter(([registration, g]) => g.paths.length > 0 && registration.provider.speculate !== undefined)
        .map(([registration, g]) =>
          askProvider(registration, g, root, request.waitMs, controller.signal, workspaceRootsOf(root, registry.openRoots())),
        ),
    )
    const byPath = new Map(answers.flat().map((file) => [file.path, file]))
    return {
      files: paths.map(
        (path) =>
          unchecked.get(path) ??
          byPath.get(path) ?? { path, freshness: 'unavailable', diagnostics: [], note: 'the provider returned no entry for this file' },
      ),
    }
  } finally {
    signal?.removeEventListener('abort', abort)
  }
}
