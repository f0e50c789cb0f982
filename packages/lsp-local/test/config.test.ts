import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, mergeProfiles, resolveHostConfig, type ServerProfile } from '../src/index.js'
import { serverEnvironment } from '../src/policy/environment.js'

const fixture: ServerProfile = { id: 'fixture', command: '/bin/true', args: [], extensions: { '.fx': 'fx' } }

test('built-ins resolve from the package dependencies, nothing global', async () => {
  const profiles = await builtinProfiles()
  const byId = new Map(profiles.map((p) => [p.id, p]))
  expect(byId.get('typescript')?.unavailable).toBeUndefined()
  expect(nodePath.isAbsolute(byId.get('typescript')?.command ?? '')).toBe(true)
  expect(byId.get('typescript-language-server')?.args[0]).toMatch(/typescript-language-server.*cli\.mjs$/)
  expect(byId.get('pyright')?.args[0]).toMatch(/pyright.*langserver\.index\.js$/)
  expect(byId.get('typescript-language-server')?.enabled).toBe(false)
})

test('user profiles add, override and disable; two enabled profiles may not share an extension', async () => {
  const builtins = await builtinProfiles()
  const merged = mergeProfiles(builtins, [fixture, { id: 'pyright', enabled: false }, { id: 'typescript', requestTimeoutMs: 1 } as never])
  expect(merged.map((p) => p.id)).toEqual(expect.arrayContaining(['typescript', 'fixture']))
  expect(merged.map((p) => p.id)).not.toContain('pyright')
  expect(() => mergeProfiles(builtins, [{ id: 'typescript-language-server', enabled: true }])).toThrow(/both claim/)
  expect(() => mergeProfiles([], [{ ...fixture, extensions: { 'not an ext': 'x' } }])).toThrow(/not a file extension/)
})

test('a JSON config file is read and merged under inline options', async () => {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-config-'))
  const file = nodePath.join(dir, 'lsp-local.json')
  writeFileSync(file, JSON.stringify({ requestTimeoutMs: 1234, idleTtlMs: 5, profiles: [fixture] }))
  const config = await resolveHostConfig({ configFile: file, idleTtlMs: 9, builtins: false }, [])
  expect(config).toMatchObject({ requestTimeoutMs: 1234, idleTtlMs: 9 })
  expect(config.profiles.map((p) => p.id)).toEqual(['fixture'])
  writeFileSync(file, '{ nope')
  await expect(resolveHostConfig({ configFile: file }, [])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
})

test('servers get a minimal environment: no inherited credentials, plus the allow-lists', () => {
  process.env['CODESEAM_TEST_SECRET'] = 'hunter2'
  process.env['CODESEAM_TEST_ALLOWED'] = 'yes'
  try {
    const env = serverEnvironment([], fixture)
    expect(env['CODESEAM_TEST_SECRET']).toBeUndefined()
    expect(env['PATH']).toBe(process.env['PATH'])
    expect(serverEnvironment(['CODESEAM_TEST_ALLOWED'], fixture)['CODESEAM_TEST_ALLOWED']).toBe('yes')
    expect(serverEnvironment([], { ...fixture, envAllow: ['CODESEAM_TEST_ALLOWED'], env: { EXTRA: '1' } })).toMatchObject({
      CODESEAM_TEST_ALLOWED: 'yes',
      EXTRA: '1',
    })
  } finally {
    delete process.env['CODESEAM_TEST_SECRET']
    delete process.env['CODESEAM_TEST_ALLOWED']
  }
})

test('roots are untrusted by default; a profile that refuses untrusted roots fails with UNTRUSTED until trusted', async () => {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-trust-'))
  writeFileSync(nodePath.join(dir, 'a.fx'), 'x')
  const host = await createLocalHost({ builtins: false, profiles: [{ ...fixture, command: '/nonexistent/server', untrusted: 'refuse' }] })
  try {
    const ws = await host.openWorkspace(dir)
    const provider = host.providers[0]!
    const request = { operation: 'documentSymbols' as const, root: ws.root, path: nodePath.join(ws.root, 'a.fx'), languageId: 'fx' }
    await expect(provider.query(request, new AbortController().signal)).rejects.toMatchObject({ code: 'UNTRUSTED' })
    await host.setTrust(ws.root, 'trusted')
    // Trusted, the profile starts — and the missing executable is a typed failure, not an empty answer.
    await expect(provider.query(request, new AbortController().signal)).rejects.toMatchObject({
      code: expect.stringMatching(/SERVER_CRASHED|SERVER_ERROR/),
    })
  } finally {
    await host.dispose()
  }
})

test('a profile that cannot run here reports unavailable with what to install', async () => {
  const host = await createLocalHost({ builtins: false, profiles: [{ ...fixture, unavailable: 'install fixture-server' }] })
  try {
    expect(host.status()).toEqual([
      expect.objectContaining({ providerId: 'local:fixture', state: 'unavailable', reason: 'install fixture-server' }),
    ])
    const ws = await host.openWorkspace(tmpdir())
    await expect(
      host.providers[0]!.query(
        { operation: 'documentSymbols', root: ws.root, path: nodePath.join(ws.root, 'x.fx'), languageId: 'fx' },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  } finally {
    await host.dispose()
  }
})

test('limits.maxOpenDocuments is the one setting; the old top-level maxOpenDocuments is an alias for it', async () => {
  expect((await resolveHostConfig({ builtins: false }, [])).limits.maxOpenDocuments).toBe(200)
  expect((await resolveHostConfig({ builtins: false, limits: { maxOpenDocuments: 9 } }, [])).limits.maxOpenDocuments).toBe(9)
  expect((await resolveHostConfig({ builtins: false, maxOpenDocuments: 7 }, [])).limits.maxOpenDocuments).toBe(7)
  expect(
    (await resolveHostConfig({ builtins: false, maxOpenDocuments: 7, limits: { maxOpenDocuments: 7 } }, [])).limits.maxOpenDocuments,
  ).toBe(7)
  await expect(resolveHostConfig({ builtins: false, maxOpenDocuments: 7, limits: { maxOpenDocuments: 9 } }, [])).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
  })
  await expect(resolveHostConfig({ builtins: false, maxOpenDocuments: 0 }, [])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
})
