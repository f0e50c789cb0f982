/**
 * TypeProf (Ruby) against its attack workspace, through the host's public API: it never runs the Ruby it reads (at
 * any trust level: it compiles files and interprets them abstractly), and for an untrusted root the variables that
 * make Ruby itself run workspace code at start (RUBYOPT, RUBYGEMS_GEMDEPS) are not passed, even when a profile sets
 * them; for a trusted root with them set, the workspace's Gemfile and preload do run (so the attack is real).
 */
import { describe, expect, test } from 'vitest'

import { waitForFile } from './fixtures/untrusted/prepare.js'
import { askRegardless, attackSessions, definitionFiles, type AttackSession } from './support/attack-session.js'

/** What a careless user profile hands Ruby: a preload from the server's folder, and the Gemfile found from it. */
const rubyStartEnv = { RUBYOPT: '-r./preload', RUBYGEMS_GEMDEPS: '-' }

const sessions = await attackSessions('ruby', 'typeprof')
const missing = sessions.missing
const attach = (trust: 'trusted' | 'untrusted', env?: Readonly<Record<string, string>>) =>
  sessions.attach(trust, env === undefined ? undefined : { env: { ...env } })

/** Definition of `greet` from main.rb: TypeProf's answer after it analysed main.rb and the file it requires. */
const greetDefinition = (w: AttackSession) => definitionFiles(w, 'main.rb', 'greet("world")')

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
      await askRegardless(greetDefinition(w))
      await waitForFile(`${w.root}/gemfile.marker`, 60_000)
      await waitForFile(`${w.root}/rubyopt.marker`, 60_000)
      expect(w.markers()).toEqual(['gemfile.marker', 'rubyopt.marker'])
    },
  )
})
