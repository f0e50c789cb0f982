import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { languageRecords } from '../src/languages/index.js'
import { mergeProfiles } from '../src/policy/config.js'
import { builtinProfiles } from '../src/policy/builtin-profiles.js'
import type { ServerProfile } from '../src/profile/profiles.js'
import { planSpawn } from '../src/policy/trust.js'

// codeseam run on a checkout that contains codeseam itself: the bundled servers live inside the workspace.
const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-bundled-')))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const server = nodePath.join(scratch, 'node_modules', '.bin', 'fake-server')
mkdirSync(nodePath.dirname(server), { recursive: true })
writeFileSync(server, '#!/bin/sh\nexit 0\n')
chmodSync(server, 0o755)

const profile = (overrides: Partial<ServerProfile>): ServerProfile => ({
  id: 'fake',
  command: server,
  args: ['--stdio'],
  extensions: { '.fake': 'fake' },
  untrusted: {},
  ...overrides,
})
const context = { root: scratch, trust: 'untrusted' as const, env: { PATH: '/usr/bin:/bin' } }

describe('bundled built-in servers', () => {
  test('every built-in that resolved its server from our own dependencies is marked bundled', async () => {
    // From the records: a server installed with this package's own npm dependencies is bundled; one found on
    // the machine (PATH, Go's bin, a cargo root) never is.
    for (const builtin of await builtinProfiles()) {
      const record = languageRecords.find((r) => r.id === builtin.id)
      if (record !== undefined && 'dependency' in record.install)
        expect(builtin.bundled === true || builtin.unavailable !== undefined, builtin.id).toBe(true)
      else expect(builtin.bundled, builtin.id).toBeUndefined()
    }
  })

  test('a bundled server inside an untrusted workspace may run; the same command from a user profile may not', () => {
    expect(planSpawn(profile({ bundled: true }), context).command).toBe(server)
    const error = (() => {
      try {
        planSpawn(profile({}), context)
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(LspError)
    expect((error as LspError).code).toBe('UNTRUSTED')
  })

  test('user configs cannot claim bundled, and overriding command or args clears it', () => {
    const builtins = [profile({ bundled: true })]
    const [settingsOnly] = mergeProfiles(builtins, [{ id: 'fake', settings: { a: 1 } }])
    expect(settingsOnly?.bundled).toBe(true)
    const [newCommand] = mergeProfiles(builtins, [{ id: 'fake', command: '/usr/bin/env' }])
    expect(newCommand?.bundled).toBeUndefined()
    const [newArgs] = mergeProfiles(builtins, [{ id: 'fake', args: ['--other'] }])
    expect(newArgs?.bundled).toBeUndefined()
    const [claimed] = mergeProfiles([], [profile({ id: 'mine', bundled: true })])
    expect(claimed?.bundled).toBeUndefined()
  })
})
