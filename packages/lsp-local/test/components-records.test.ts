// The Svelte and Astro records' own parts that need no server: which command lines are theirs, and the entry the
// Astro server starts through (its untrusted switch only for an untrusted root).
import { expect, test } from 'vitest'

import { astroRecord, serverEntry } from '../src/languages/astro/record.js'
import { svelteRecord } from '../src/languages/svelte/record.js'

test('a user profile running either server by its script or its bin takes the record; another script does not', () => {
  const svelteScript = '/opt/n/node_modules/svelte-language-server/bin/server.js'
  expect(svelteRecord.recognizes('node', [svelteScript, '--stdio'])).toBe(true)
  expect(svelteRecord.recognizes('/usr/local/bin/svelteserver', ['--stdio'])).toBe(true)
  expect(svelteRecord.recognizes('node', ['/opt/other-server/bin/server.js', '--stdio'])).toBe(false)
  const astroScript = '/opt/n/node_modules/@astrojs/language-server/bin/nodeServer.js'
  expect(astroRecord.recognizes('node', [astroScript, '--stdio'])).toBe(true)
  expect(astroRecord.recognizes('node', [...serverEntry(astroScript, true), '--stdio'])).toBe(true)
  expect(astroRecord.recognizes('astro-ls', ['--stdio'])).toBe(true)
  expect(astroRecord.recognizes('node', ['/opt/other/nodeServer.js', '--stdio'])).toBe(false)
})

test("the Astro entry throws the server's untrusted switch only for an untrusted root, and keeps the script as node's operand", () => {
  const script = '/opt/n/node_modules/@astrojs/language-server/bin/nodeServer.js'
  const [trusted, operand] = serverEntry(script, false)
  const [untrusted] = serverEntry(script, true)
  expect(operand).toBe(script)
  const code = (option: string | undefined) => decodeURIComponent((option ?? '').replace('--import=data:text/javascript,', ''))
  expect(code(trusted)).toMatch(/console\.info = /)
  expect(code(trusted)).not.toMatch(/setIsTrusted/)
  expect(code(untrusted)).toContain(`createRequire(${JSON.stringify(script)})('../dist/importPackage.js').setIsTrusted(false)`)
})
