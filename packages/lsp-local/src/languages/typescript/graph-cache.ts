import { statSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { ServerProfile } from '../../profile/profiles.js'
import { listFiles } from '../../profile/files.js'
import { discoverTsProjects, isTsConfigName, type TsProjectGraph } from './projects.js'

/**
 * Per (server folder, profile): the TypeScript project graph, until one of its config files changes. The
 * cache is the map of its entries, keyed `<root>\0<profile id>`.
 */
export class TsGraphCache extends Map<string, CachedGraph> {
  /** Whether a path is a project config, or a config file read for the graph of (root, profile). */
  isConfig(root: string, profile: ServerProfile, path: string): boolean {
    return isTsConfigName(nodePath.basename(path)) || this.get(graphKey(root, profile))?.configFiles.has(path) === true
  }

  /** Forgets the graph of (root, profile): the next query reads it again. */
  forget(root: string, profile: ServerProfile): void {
    this.delete(graphKey(root, profile))
  }

  /** The graph of (root, profile) when it was read and none of its config files changed since. */
  settled(root: string, profile: ServerProfile): TsProjectGraph | undefined {
    return this.current(graphKey(root, profile))?.value
  }

  /** The cached graph of a key, unless a config file read for it changed (then it is forgotten). */
  private current(key: string): CachedGraph | undefined {
    const cached = this.get(key)
    // A config edited in a tree too large to watch, or before the watcher saw it: its stat tells.
    if (cached?.settled === true && [...cached.configFiles].some((file) => statSignature(file) !== cached.signatures.get(file))) {
      this.delete(key)
      return undefined
    }
    return cached
  }

  /** The project graph of a folder, read once and kept until a config file in it changes. */
  async read(root: string, profile: ServerProfile, deadline: number, signal?: AbortSignal): Promise<TsProjectGraph> {
    const key = graphKey(root, profile)
    let cached = this.current(key)
    if (cached === undefined) {
      const configFiles = new Set<string>()
      const signatures = new Map<string, string | undefined>()
      const entry: CachedGraph = {
        configFiles,
        signatures,
        settled: false,
        graph: Promise.resolve({ projects: [], configFiles: [], errors: [] }),
      }
      entry.graph = (async () => {
        // Listed while the child loads the compiler.
        const configs = listFiles(root, { names: new Set(['tsconfig.json', 'jsconfig.json']) }, 2_000)
        const graph = await discoverTsProjects(
          root,
          configs.then(({ files }) => files),
          {
            timeoutMs: Math.max(1, deadline - Date.now()),
            ...(signal === undefined ? {} : { signal }),
          },
        )
        for (const file of [...(await configs).files, ...graph.configFiles]) {
          configFiles.add(file)
          signatures.set(file, statSignature(file))
        }
        entry.settled = true
        entry.value = graph
        return graph
      })()
      cached = entry
      this.set(key, entry)
      entry.graph.catch(() => this.get(key) === entry && this.delete(key))
    }
    return cached.graph
  }
}

function graphKey(root: string, profile: ServerProfile): string {
  return `${root}\0${profile.id}`
}

export interface CachedGraph {
  graph: Promise<TsProjectGraph>
  /** The graph, once read. */
  value?: TsProjectGraph
  /** Config files read for it (configs, `extends` targets) and their stat signature when read. */
  readonly configFiles: Set<string>
  readonly signatures: Map<string, string | undefined>
  settled: boolean
}

function statSignature(file: string): string | undefined {
  const info = statSync(file, { throwIfNoEntry: false })
  return info === undefined ? undefined : `${info.mtimeMs}:${info.ctimeMs}:${info.size}:${info.ino}`
}
