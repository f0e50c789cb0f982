import { LspError, lspOperations, type LspOperation, type LspProvider } from '@codeseam/lsp'

import { derivedFrom } from './features/derived.js'
import { recordFor } from './languages/index.js'
import { languageLacks } from './profile/profile-operations.js'
import type { ServerProfile } from './profile/profiles.js'
import { changeMarkOf } from './provider.js'

// The providers of a host on its way (RFC 0034, "Start"): see startLocalHost.

/** What a stand-in needs of the host it stands in for. */
interface Host {
  readonly providers: ReadonlyArray<LspProvider>
}

const lookingUp = 'codeseam is looking up the installed language servers (their versions are being checked)'

/**
 * A stand-in for the provider of one profile, known from the records before any server is looked up: the same id,
 * claims and language facts; the operations of the record's whole support table (a version that lacks one is found
 * only by its lookup). Each query waits for the host, then asks its provider, refusing what that one does not have
 * as the seam would; its status says `starting` until then. Its change mark (RFC 0026) is the host's provider's as
 * soon as the host exists and has the root open: before, no server of the host has run and the host wrote nothing
 * under the root (a write through its workspace waits for the host's), which is a workspace with no change counted —
 * the mark the host's provider gives then too, so a cursor of an answer from before the lookup holds after it.
 */
export function standIn(
  profile: ServerProfile,
  ready: Promise<Host>,
  /** The host once ready. */
  current: () => Host | undefined,
  /** The host once created (before its workspaces of the early roots are open in it). */
  created: () => Host | undefined,
): LspProvider {
  const id = `local:${profile.id}`
  const native: ReadonlyArray<LspOperation> = profile.operations ?? lspOperations
  const beside = new Set<LspOperation>((profile.companions ?? []).flatMap((c) => c.operations))
  const own = lspOperations.filter((o) => native.includes(o) || beside.has(o))
  const support = recordFor(profile)?.support
  const derived = derivedFrom(own).filter((op) => support === undefined || !languageLacks(support, op))
  const real = async (): Promise<LspProvider> => {
    const provider = (await ready).providers.find((p) => p.id === id)
    if (provider === undefined) throw new LspError('UNAVAILABLE', `the language-server host has no provider "${id}"`)
    return provider
  }
  return {
    id,
    extensions: profile.extensions,
    fileNames: profile.fileNames ?? {},
    interpreters: profile.interpreters ?? {},
    languageFacts: recordFor(profile)?.grammar ?? [],
    operations: [...new Set([...own, ...derived])],
    async query(request, signal) {
      const provider = await real()
      if (!provider.operations.includes(request.operation)) {
        throw new LspError(
          'UNSUPPORTED_OPERATION',
          `provider "${id}" does not support "${request.operation}" (it supports: ${provider.operations.join(', ')})`,
          { data: { providerId: id, operation: request.operation } },
        )
      }
      return provider.query(request, signal)
    },
    async changeMark(root, signal) {
      const provider = created()?.providers.find((p) => p.id === id)
      try {
        if (provider?.changeMark !== undefined) return await provider.changeMark(root, signal)
      } catch (error) {
        // The host has not opened the root yet (its workspace of the root is still opening).
        if (!(error instanceof LspError && error.code === 'UNAVAILABLE')) throw error
      }
      return changeMarkOf(0)
    },
    status() {
      const host = current()
      if (host === undefined) return [{ providerId: id, server: profile.id, state: 'starting', reason: lookingUp }]
      return host.providers.find((p) => p.id === id)?.status?.() ?? []
    },
    onStatusChange(listener) {
      let off: (() => void) | undefined
      let ended = false
      void real().then(
        (provider) => {
          if (!ended) off = provider.onStatusChange?.(listener)
        },
        () => {},
      )
      return () => {
        ended = true
        off?.()
      }
    },
  }
}
