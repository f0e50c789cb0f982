/**
 * The marker tests of one interpreter-running server (Perl, Ruby): an attack workspace attached to a fresh host at a
 * trust level, optionally with a careless user profile, cleaned up after each test, with every server gone at the end.
 */
import { LspError, createLsp, type LspService } from '@codeseam/lsp'
import { builtinProfiles, createLocalHost, type ServerProfile, type TrustLevel } from '../../src/index.js'
import { positionOf } from '../helpers.js'
import { cleanupsAfterEach } from './cleanups.js'
import { prepareAttack, type AttackWorkspace } from '../fixtures/untrusted/prepare.js'

export interface AttackSession {
  readonly root: string
  readonly lsp: LspService
  markers(): string[]
}

/** Registers the suite's cleanup hooks; returns how to attach the workspace and why the server is missing, if it is. */
export async function attackSessions(workspace: AttackWorkspace, profileId: string) {
  const cleanups = cleanupsAfterEach()
  const missing = (await builtinProfiles()).find((p) => p.id === profileId)?.unavailable
  return {
    missing,
    /**
     * A fresh copy of the workspace attached at `trust`; `profile` (or what it makes of the copy's root) overrides the
     * built-in profile, and `prepare` changes the copy first.
     */
    async attach(
      trust: TrustLevel,
      profile?: Partial<ServerProfile> | ((root: string) => Partial<ServerProfile>),
      prepare?: (root: string) => void,
    ): Promise<AttackSession> {
      const attack = prepareAttack(workspace)
      prepare?.(attack.root)
      const given = typeof profile === 'function' ? profile(attack.root) : profile
      const host = await createLocalHost(given === undefined ? {} : { profiles: [{ ...given, id: profileId }] })
      const lsp = createLsp()
      cleanups.push(
        attack.remove,
        () => host.dispose(),
        () => lsp.dispose(),
      )
      await host.attach(lsp, [{ root: attack.root, trust }])
      return { root: attack.root, markers: attack.markers, lsp }
    },
  }
}

/** The files the definition at `text` in `path` lands in. */
export async function definitionFiles(w: AttackSession, path: string, text: string): Promise<string[]> {
  const result = await w.lsp.query({ operation: 'definition', root: w.root, path, position: positionOf(w.root, path, text) })
  return result.locations.map((l) => l.path)
}

/** Asks, accepting a typed refusal: where only the markers the question makes the server write matter. */
export async function askRegardless(question: Promise<unknown>): Promise<void> {
  await question.catch((error: unknown) => {
    if (!(error instanceof LspError)) throw error
  })
}
