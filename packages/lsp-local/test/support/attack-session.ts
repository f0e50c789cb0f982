/**
 * The marker tests of one interpreter-running server (Perl, Ruby): an attack workspace attached to a fresh host at a
 * trust level, optionally with a careless user profile, cleaned up after each test, with every server gone at the end.
 */
import { LspError, createLsp, type LspService } from '@codeseam/lsp'
import { afterAll, afterEach, expect } from 'vitest'

import { builtinProfiles, createLocalHost, type ServerProfile, type TrustLevel } from '../../src/index.js'
import { LeakCheck, positionOf } from '../helpers.js'
import { prepareAttack, type AttackWorkspace } from '../fixtures/untrusted/prepare.js'

export interface AttackSession {
  readonly root: string
  readonly lsp: LspService
  markers(): string[]
}

/** Registers the suite's cleanup hooks; returns how to attach the workspace and why the server is missing, if it is. */
export async function attackSessions(workspace: AttackWorkspace, profileId: string) {
  const leaks = new LeakCheck()
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    await leaks.record()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  afterAll(async () => {
    expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
  })
  const missing = (await builtinProfiles()).find((p) => p.id === profileId)?.unavailable
  return {
    missing,
    async attach(trust: TrustLevel, profile?: Partial<ServerProfile>): Promise<AttackSession> {
      const attack = prepareAttack(workspace)
      const host = await createLocalHost(profile === undefined ? {} : { profiles: [{ ...profile, id: profileId }] })
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
