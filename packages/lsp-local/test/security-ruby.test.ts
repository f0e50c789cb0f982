/**
 * TypeProf (Ruby) against its attack workspace, through the host's public API: it never runs the Ruby it reads (at
 * any trust level: it compiles files and interprets them abstractly), and for an untrusted root the variables that
 * make Ruby itself run workspace code at start (RUBYOPT, RUBYGEMS_GEMDEPS) are not passed, even when a profile sets
 * them; for a trusted root with them set, the workspace's Gemfile and preload do run (so the attack is real).
 */
import { LspError, createLsp } from '@codeseam/lsp'
import { afterAll, afterEach, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type TrustLevel } from '../src/index.js'
import { LeakCheck, positionOf } from './helpers.js'
import { prepareAttack, waitForFile } from './fixtures/untrusted/prepare.js'

const leaks = new LeakCheck()
const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  await leaks.record()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
})

/** What a careless user profile hands Ruby: a preload from the server's folder, and the Gemfile found from it. */
const rubyStartEnv = { RUBYOPT: '-r./preload', RUBYGEMS_GEMDEPS: '-' }

async function attach(trust: TrustLevel, env?: Readonly<Record<string, string>>) {
  const attack = prepareAttack('ruby')
  const host = await createLocalHost(env === undefined ? {} : { profiles: [{ id: 'typeprof', env: { ...env } }] })
  const lsp = createLsp()
  cleanups.push(
    attack.remove,
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root: attack.root, trust }])
  return { ...attack, lsp }
}

const missing = (await builtinProfiles()).find((p) => p.id === 'typeprof')?.unavailable

/** Definition of `greet` from main.rb: TypeProf's answer after it analysed main.rb and the file it requires. */
async function greetDefinition(w: Awaited<ReturnType<typeof attach>>): Promise<string[]> {
  const result = await w.lsp.query({
    operation: 'definition',
    root: w.root,
    path: 'main.rb',
    position: positionOf(w.root, 'main.rb', 'greet("world")'),
  })
  return result.locations.map((l) => l.path)
}

describe('TypeProf', () => {
  test('trusted: the Ruby it analyses never runs (top level, BEGIN, a required file)', { timeout: 120_000 }, async ({ skip }) => {
    skip(missing !== undefined, `typeprof: ${missing}`)
    const w = await attach('trusted')
    expect(await greetDefinition(w)).toEqual([`${w.root}/lib/greeter.rb`])
    await w.lsp.query({ operation: 'diagnostics', root: w.root, path: 'main.rb' })
    expect(w.markers()).toEqual([])
  })

  test(
    'untrusted: RUBYOPT and RUBYGEMS_GEMDEPS a profile sets are not passed; nothing of the workspace runs',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `typeprof: ${missing}`)
      const w = await attach('untrusted', rubyStartEnv)
      expect(await greetDefinition(w)).toEqual([`${w.root}/lib/greeter.rb`])
      await w.lsp.query({ operation: 'diagnostics', root: w.root, path: 'main.rb' })
      expect(w.markers()).toEqual([])
    },
  )

  test(
    'trusted with those variables: Ruby runs the preload and Bundler the Gemfile (the attack is real)',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `typeprof: ${missing}`)
      const w = await attach('trusted', rubyStartEnv)
      // Bundler's setup leaves TypeProf out of the load path, so the server may not answer: only the markers matter.
      await w.lsp
        .query({ operation: 'definition', root: w.root, path: 'main.rb', position: positionOf(w.root, 'main.rb', 'greet("world")') })
        .catch((error: unknown) => {
          if (!(error instanceof LspError)) throw error
        })
      await waitForFile(`${w.root}/gemfile.marker`, 60_000)
      await waitForFile(`${w.root}/rubyopt.marker`, 60_000)
      expect(w.markers()).toEqual(['gemfile.marker', 'rubyopt.marker'])
    },
  )
})
