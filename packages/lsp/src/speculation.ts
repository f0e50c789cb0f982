import { LspError, toLspError } from './errors.js'
import { isWithin, normalizeRoot, resolveInRoot } from './paths.js'
import type { LspSpeculatedFile, LspSpeculationRequest, LspSpeculationResult } from './provider.js'
import type { Registration, Registry } from './registry.js'

/*
 * The speculation stage (RFC 0018): diagnostics of files as an edit would leave them, the check split by the
 * provider that owns each file; what no provider can check is said so, file by file.
 */

/** Splits a speculative check by the provider that owns each file; what no provider can check is said so. */
export async function speculateAcross(
  registry: Registry,
  request: LspSpeculationRequest,
  signal: AbortSignal | undefined,
): Promise<LspSpeculationResult> {
  const workspace = registry.workspaceAt(normalizeRoot(request.root))
  if (workspace === undefined) throw new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`)
  const root = workspace.root
  const inside = (path: string): string => {
    const absolute = resolveInRoot(root, path)
    if (!isWithin(root, absolute)) throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is outside the workspace ${root}`)
    return absolute
  }
  const groups = new Map<Registration, { documents: LspSpeculationRequest['documents'][number][]; paths: string[] }>()
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
  const controller = new AbortController()
  const abort = () => controller.abort(signal?.reason)
  if (signal?.aborted === true) abort()
  signal?.addEventListener('abort', abort, { once: true })
  try {
    const answers = await Promise.all(
      [...groups]
        .filter(([registration, g]) => g.paths.length > 0 && registration.provider.speculate !== undefined)
        .map(async ([registration, g]) => {
          try {
            return (
              await registration.provider.speculate!(
                { root, documents: g.documents, paths: g.paths, waitMs: request.waitMs },
                controller.signal,
              )
            ).files
          } catch (cause) {
            const error = toLspError(cause, 'SERVER_ERROR', 'speculate')
            if (error.code === 'CANCELLED' || controller.signal.aborted) throw error
            return g.paths.map((path): LspSpeculatedFile => ({
              path,
              freshness: 'unavailable',
              diagnostics: [],
              note: `${error.code}: ${error.message}`,
            }))
          }
        }),
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
