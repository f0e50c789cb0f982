import { readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { expect, test } from 'vitest'

import { installTable, profileTable, readmeLanguageTable } from '../src/languages/docs.js'
import { mergeProfiles, type ProfileConfig } from '../src/policy/config.js'
import type { ServerProfile } from '../src/profile/profiles.js'
import { planSpawn } from '../src/policy/trust.js'

// The docs' language tables are rendered from the language records; CODESEAM_WRITE_DOCS=1 rewrites them.
const repo = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

function section(file: string, name: string, rendered: string): void {
  const path = nodePath.join(repo, file)
  const text = readFileSync(path, 'utf8')
  const start = `<!-- ${name}: generated from packages/lsp-local/src/languages (CODESEAM_WRITE_DOCS=1 pnpm vitest run language-docs) -->`
  const end = `<!-- /${name} -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  expect(from, `${file} has the ${name} markers`).toBeGreaterThanOrEqual(0)
  expect(to).toBeGreaterThan(from)
  const current = text.slice(from + start.length, to).trim()
  if (process.env['CODESEAM_WRITE_DOCS'] === '1' && current !== rendered) {
    writeFileSync(path, `${text.slice(0, from + start.length)}\n${rendered}\n${text.slice(to)}`)
    return
  }
  expect(current, `${file}'s ${name} table is not what the records say: CODESEAM_WRITE_DOCS=1 rewrites it`).toBe(rendered)
}

test("README.md's language table is the records'", () => {
  section('README.md', 'languages', readmeLanguageTable())
})

test("docs/lsp-local.md's built-in profile table is the records'", () => {
  section('docs/lsp-local.md', 'profiles', profileTable())
})

test("docs/cli.md's install table is the records'", () => {
  section('docs/cli.md', 'install', installTable())
})

test("README.md's profile example loads, and states its untrusted rule so an untrusted root gets a plan", async () => {
  const text = readFileSync(nodePath.join(repo, 'README.md'), 'utf8')
  const block = /Any other server is one config entry[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(text)?.[1]
  expect(block, 'README.md has the config example').toBeDefined()
  const config = JSON.parse(block ?? '') as { profiles: ProfileConfig[] }
  const [profile] = mergeProfiles([], config.profiles)
  expect(profile?.untrusted).toBeDefined()
  // "refuse" is a rule: the untrusted root is refused with the trust advice, not with "states no rule".
  expect(() => planSpawn(profile as ServerProfile, { root: repo, trust: 'untrusted', env: { PATH: '/usr/bin' } })).toThrow(
    /would run code chosen by the workspace/,
  )
})
