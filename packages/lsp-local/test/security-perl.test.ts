/**
 * Perl::LanguageServer against its attack workspace, through the host's public API. Its syntax check (`perl -c` of
 * each opened document) runs the document's BEGIN blocks and the workspace modules it `use`s: codeseam starts the
 * server with the check replaced by nothing, for every root, and for an untrusted root whatever a user profile says
 * (its arguments, PERL5OPT); a trusted root whose profile brings the bare entry point back runs them (the attack is real).
 */
import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

import { waitForFile } from './fixtures/untrusted/prepare.js'
import { askRegardless, attackSessions, definitionFiles, type AttackSession } from './support/attack-session.js'

/** A careless user profile: the server's bare entry point (its syntax check on) and a preload from the server's folder. */
const bareServer = {
  args: ['-MPerl::LanguageServer', '-e', 'Perl::LanguageServer::run'],
  env: { PERL5OPT: '-I. -MPreload' },
}

const sessions = await attackSessions('perl', 'perl-languageserver')
const missing = sessions.missing
const attach = (trust: 'trusted' | 'untrusted', careless: boolean) => sessions.attach(trust, careless ? bareServer : undefined)

/** Opens main.pl (which starts the syntax check when it is on) and asks where `greet` is defined. */
const greetDefinition = (w: AttackSession) => definitionFiles(w, 'main.pl', 'greet("world")')

/**
 * The control: a trusted copy with the careless profile, opened after the root under test. The server checks a document
 * on a timer of its own after it opens (1.5 s): when the control's check has run its used module, the other root's check
 * would have run too, had it been on.
 */
async function afterControlRan(): Promise<void> {
  const control = await attach('trusted', true)
  await askRegardless(greetDefinition(control))
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
      await askRegardless(greetDefinition(w))
      await waitForFile(`${w.root}/used.marker`, 60_000)
      await waitForFile(`${w.root}/begin.marker`, 60_000)
      expect(w.markers()).toEqual(['begin.marker', 'perl5opt.marker', 'used.marker'])
    },
  )
})
