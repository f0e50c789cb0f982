/**
 * Perl::LanguageServer against its attack workspace, through the host's public API. Its syntax check (`perl -c` of
 * each opened document) runs the document's BEGIN blocks and the workspace modules it `use`s: codeseam starts the
 * server with the check replaced by nothing, for every root, and for an untrusted root whatever a user profile says
 * (its arguments, PERL5OPT); a trusted root whose profile brings the bare entry point back runs them (the attack is real).
 */
import { LspError, createLsp } from '@codeseam/lsp'
import { existsSync } from 'node:fs'
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

/** A careless user profile: the server's bare entry point (its syntax check on) and a preload from the server's folder. */
const bareServer = {
  id: 'perl-languageserver',
  args: ['-MPerl::LanguageServer', '-e', 'Perl::LanguageServer::run'],
  env: { PERL5OPT: '-I. -MPreload' },
}

async function attach(trust: TrustLevel, careless: boolean) {
  const attack = prepareAttack('perl')
  const host = await createLocalHost(careless ? { profiles: [bareServer] } : {})
  const lsp = createLsp()
  cleanups.push(
    attack.remove,
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root: attack.root, trust }])
  return { ...attack, lsp }
}

const missing = (await builtinProfiles()).find((p) => p.id === 'perl-languageserver')?.unavailable

/** Opens main.pl (which starts the syntax check when it is on) and asks where `greet` is defined. */
async function greetDefinition(w: Awaited<ReturnType<typeof attach>>): Promise<string[]> {
  const result = await w.lsp.query({
    operation: 'definition',
    root: w.root,
    path: 'main.pl',
    position: positionOf(w.root, 'main.pl', 'greet("world")'),
  })
  return result.locations.map((l) => l.path)
}

/**
 * The control: a trusted copy with the careless profile, opened after the root under test. The server checks a document
 * on a timer of its own after it opens (1.5 s): when the control's check has run its used module, the other root's check
 * would have run too, had it been on.
 */
async function afterControlRan(): Promise<void> {
  const control = await attach('trusted', true)
  await greetDefinition(control).catch((error: unknown) => {
    if (!(error instanceof LspError)) throw error
  })
  await waitForFile(`${control.root}/used.marker`, 60_000)
}

describe('Perl::LanguageServer', () => {
  test(
    'trusted, the built-in profile: no BEGIN block or used module runs; nothing is written into the workspace',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `perl-languageserver: ${missing}`)
      const w = await attach('trusted', false)
      expect(await greetDefinition(w)).toEqual([`${w.root}/lib/Evil.pm`])
      await afterControlRan()
      expect(w.markers()).toEqual([])
      expect(existsSync(`${w.root}/.vscode`), 'the parse cache stays out of the workspace').toBe(false)
    },
  )

  test(
    'untrusted, a profile with the bare entry point and PERL5OPT: nothing of the workspace runs',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `perl-languageserver: ${missing}`)
      const w = await attach('untrusted', true)
      expect(await greetDefinition(w)).toEqual([`${w.root}/lib/Evil.pm`])
      await afterControlRan()
      expect(w.markers()).toEqual([])
    },
  )

  test(
    'trusted, the same profile: the preload, the BEGIN block and the used module run (the attack is real)',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `perl-languageserver: ${missing}`)
      const w = await attach('trusted', true)
      await greetDefinition(w).catch((error: unknown) => {
        if (!(error instanceof LspError)) throw error
      })
      await waitForFile(`${w.root}/used.marker`, 60_000)
      await waitForFile(`${w.root}/begin.marker`, 60_000)
      expect(w.markers()).toEqual(['begin.marker', 'perl5opt.marker', 'used.marker'])
    },
  )
})
