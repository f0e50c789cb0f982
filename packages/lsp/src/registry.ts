import * as nodePath from 'node:path'

import { LspError } from './errors.js'
import { builtInLanguageFacts, type LspLanguageFacts } from './language-facts.js'
import { normalizeRoot } from './paths.js'
import type { LspProvider, LspProviderStatus, LspWorkspace } from './provider.js'
import { validateProvider, type LspProviderInfo } from './provider-validation.js'
import { firstLineIn, Routes } from './routing.js'

/*
 * The registry stage of the service: the providers and workspaces registration publishes, the routes a file
 * takes to its provider, and the status listeners. Every other stage reads it through its methods only.
 */

/** Releases a registration. Idempotent: later calls resolve at once. */
export type Disposer = () => Promise<void>

/** An open workspace root as introspection shows it. */
export interface LspWorkspaceInfo {
  readonly id: string
  readonly root: string
}

/** A published provider: what validation made of it, the provider itself, and its status subscription. */
export interface Registration {
  readonly info: LspProviderInfo
  readonly provider: LspProvider
  readonly unsubscribe: () => void
}

/** A file's provider and the language id it serves the file as. */
export interface FileOwner {
  readonly registration: Registration
  readonly languageId: string
}

/** Every claimed extension, file name and interpreter, in registration order. */
export interface ClaimedKeys {
  readonly extensions: ReadonlyArray<string>
  readonly fileNames: ReadonlyArray<string>
  readonly interpreters: ReadonlyArray<string>
}

/** The names {@link Registry.registerProvider} gives the kinds of claim in a conflict. */
const claimNames = { extension: 'extension', fileName: 'file name', interpreter: 'interpreter' } as const

/** Throws unless `workspace` has an id, an absolute root and the three functions the seam calls. */
function validateWorkspace(workspace: LspWorkspace): void {
  if (workspace === null || typeof workspace !== 'object') throw new LspError('INVALID_ARGUMENT', 'a workspace must be an object')
  if (typeof workspace.id !== 'string' || workspace.id.trim().length === 0 || workspace.id.trim() !== workspace.id) {
    throw new LspError('INVALID_ARGUMENT', `workspace id ${JSON.stringify(workspace.id)} must be a non-empty trimmed string`)
  }
  if (typeof workspace.root !== 'string' || !nodePath.isAbsolute(workspace.root)) {
    throw new LspError('INVALID_ARGUMENT', `workspace root ${JSON.stringify(workspace.root)} must be an absolute path`)
  }
  for (const method of ['readFile', 'exists', 'applyEdit'] as const) {
    if (typeof workspace[method] !== 'function') {
      throw new LspError('INVALID_ARGUMENT', `workspace "${workspace.id}" has no ${method} function`)
    }
  }
}

/** The providers, workspaces and listeners of one service, until it is disposed. */
export class Registry {
  readonly #registrations = new Map<string, Registration>()
  readonly #routes = new Routes<Registration>()
  readonly #workspacesByRoot = new Map<string, LspWorkspace>()
  readonly #workspacesById = new Map<string, LspWorkspace>()
  readonly #listeners = new Set<(status: LspProviderStatus) => void>()
  #disposed = false

  /** Throws DISPOSED once {@link dispose} has run. */
  ensureLive(): void {
    if (this.#disposed) throw new LspError('DISPOSED', 'this ctx.lsp service was disposed; create a new one with createLsp()')
  }

  /** Reserves the provider's id and every claim atomically; throws LspError and publishes nothing on failure. */
  registerProvider(provider: LspProvider): Disposer {
    this.ensureLive()
    const info = validateProvider(provider)
    if (this.#registrations.has(info.id)) {
      throw new LspError('CONFLICT', `a provider with id "${info.id}" is already registered`, { data: { providerId: info.id } })
    }
    const conflict = this.#routes.conflict(info)
    if (conflict !== undefined) {
      throw new LspError(
        'CONFLICT',
        `${claimNames[conflict.kind]} "${conflict.key}" is already served by provider "${conflict.owner.info.id}"`,
        {
          data: { [conflict.kind]: conflict.key, owner: conflict.owner.info.id },
        },
      )
    }
    // Everything validated: publish.
    const unsubscribe =
      provider.onStatusChange?.((status) => {
        for (const listener of this.#listeners) listener(status)
      }) ?? (() => {})
    const registration: Registration = { info, provider, unsubscribe }
    this.#registrations.set(info.id, registration)
    this.#routes.add(registration)
    let released: Promise<void> | undefined
    return () => {
      released ??= (async () => {
        if (this.#registrations.get(info.id) !== registration) return
        this.#registrations.delete(info.id)
        this.#routes.remove(registration)
        registration.unsubscribe()
        await provider.dispose?.()
      })()
      return released
    }
  }

  /** Opens a workspace root; one workspace per root and per id. */
  registerWorkspace(workspace: LspWorkspace): Disposer {
    this.ensureLive()
    validateWorkspace(workspace)
    const root = normalizeRoot(workspace.root)
    if (this.#workspacesByRoot.has(root)) throw new LspError('CONFLICT', `a workspace is already open at ${root}`)
    if (this.#workspacesById.has(workspace.id)) throw new LspError('CONFLICT', `a workspace with id "${workspace.id}" is already open`)
    this.#workspacesByRoot.set(root, workspace)
    this.#workspacesById.set(workspace.id, workspace)
    let released = false
    return async () => {
      if (released) return
      released = true
      if (this.#workspacesByRoot.get(root) === workspace) this.#workspacesByRoot.delete(root)
      if (this.#workspacesById.get(workspace.id) === workspace) this.#workspacesById.delete(workspace.id)
    }
  }

  /** Registered providers, in registration order. */
  registered(): Registration[] {
    return [...this.#registrations.values()]
  }

  /** How many providers are registered. */
  get providerCount(): number {
    return this.#registrations.size
  }

  /** The workspace open at a normalized root, if any. */
  workspaceAt(root: string): LspWorkspace | undefined {
    return this.#workspacesByRoot.get(root)
  }

  /** The workspace with an id, if open. */
  workspaceById(id: string): LspWorkspace | undefined {
    return this.#workspacesById.get(id)
  }

  /** The normalized roots of the open workspaces. */
  openRoots(): string[] {
    return [...this.#workspacesByRoot.keys()]
  }

  /** The open workspaces, in opening order. */
  openWorkspaces(): LspWorkspace[] {
    return [...this.#workspacesByRoot.values()]
  }

  /** A file's provider: by name, extension, or `#!` line (read only inside an open workspace root; RFC 0020). */
  ownerOf(path: string): FileOwner | undefined {
    const route = this.#routes.ownerOf(path, () => firstLineIn(path, this.#workspacesByRoot.keys()))
    return route === undefined ? undefined : { registration: route.owner, languageId: route.languageId }
  }

  /** What the providers claim, for the message of a file none serves. */
  claimedKeys(): ClaimedKeys {
    return {
      extensions: [...this.#routes.extensions.keys()],
      fileNames: [...this.#routes.fileNames.keys()],
      interpreters: [...this.#routes.interpreters.keys()],
    }
  }

  /** The most recently registered provider that knows the language wins; then the seam's own table. */
  languageFacts(languageId: string): LspLanguageFacts | undefined {
    for (const registration of [...this.registered()].reverse()) {
      const facts = registration.provider.languageFacts?.find((f) => f.languageIds.includes(languageId))
      if (facts !== undefined) return facts
    }
    return builtInLanguageFacts.find((f) => f.languageIds.includes(languageId))
  }

  /** Subscribes to status changes of every provider; returns an unsubscribe function. */
  onStatusChange(listener: (status: LspProviderStatus) => void): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** Releases every registration; afterwards {@link ensureLive} throws. */
  async dispose(): Promise<void> {
    if (this.#disposed) return
    this.#disposed = true
    const all = this.registered()
    this.#registrations.clear()
    this.#routes.clear()
    this.#workspacesByRoot.clear()
    this.#workspacesById.clear()
    this.#listeners.clear()
    for (const r of all) r.unsubscribe()
    await Promise.allSettled(all.map((r) => r.provider.dispose?.()))
  }
}
