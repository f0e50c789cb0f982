/**
 * graphql-language-service-server against its attack workspace, through the host's public API. The server loads the
 * graphql-config it finds in the root: a `.graphqlrc.yml` whose schema is `schema.js` makes graphql-tools' code-file
 * loader require the script, and a `graphql.config.js` is itself a script. For an untrusted root codeseam answers the
 * server's `graphql-config` section with its own config (JSON in codeseam's cache: the root's GraphQL files), whatever
 * a user profile says; a trusted root uses the workspace's own, and its scripts run (the attack is real).
 */
import { existsSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

import { positionOf } from './helpers.js'
import { waitForFile } from './fixtures/untrusted/prepare.js'
import { attackSessions, type AttackSession } from './support/attack-session.js'

const sessions = await attackSessions('graphql', 'graphql')
const missing = sessions.missing

/** A graphql.config.js: a script graphql-config imports (jiti) when it finds it, before any `.graphqlrc.yml`. */
const scriptConfig = [
  `require('node:fs').appendFileSync(__dirname + '/config.marker', 'ran\\n')`,
  `module.exports = { schema: 'schema.js', documents: '*.graphql' }`,
  '',
].join('\n')

/** A careless user profile: its settings hand the server the workspace's own config, under both sections it reads. */
const carelessProfile = (root: string) => {
  const load = { filepath: `${root}/.graphqlrc.yml`, rootDir: root }
  return { settings: { 'graphql-config': { load }, 'vscode-graphql': { load } } }
}

const attach = (trust: 'trusted' | 'untrusted', options: { scriptConfig?: boolean; careless?: boolean } = {}) =>
  sessions.attach(trust, options.careless === true ? carelessProfile : undefined, (root) => {
    if (options.scriptConfig === true) writeFileSync(`${root}/graphql.config.js`, scriptConfig)
  })

/** Hover on the query's `title`: answered from the schema, which the server loads (and a code schema runs) for it. */
async function titleHover(w: AttackSession): Promise<string | undefined> {
  const result = await w.lsp.query({
    operation: 'hover',
    root: w.root,
    path: 'query.graphql',
    position: positionOf(w.root, 'query.graphql', 'title'),
  })
  return result.hover?.contents
}

describe('graphql-language-service-server', () => {
  test(
    "untrusted, a .graphqlrc.yml whose schema is a script: codeseam's config answers and the script never runs",
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `graphql: ${missing}`)
      const w = await attach('untrusted')
      expect(await titleHover(w)).toMatch(/Book\.title: String/)
      expect(w.markers()).toEqual([])
    },
  )

  test(
    "untrusted, a graphql.config.js and a profile that names the workspace's config: nothing of the workspace runs",
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(missing !== undefined, `graphql: ${missing}`)
      const w = await attach('untrusted', { scriptConfig: true, careless: true })
      expect(await titleHover(w)).toMatch(/Book\.title: String/)
      expect(w.markers()).toEqual([])
      expect(existsSync(`${w.root}/graphql.config.js`)).toBe(true)
    },
  )

  test('trusted: the workspace config is read and its schema script runs (the attack is real)', { timeout: 120_000 }, async ({ skip }) => {
    skip(missing !== undefined, `graphql: ${missing}`)
    const w = await attach('trusted')
    expect(await titleHover(w)).toMatch(/Book\.title: String/)
    await waitForFile(`${w.root}/schema.marker`, 60_000)
    expect(w.markers()).toEqual(['schema.marker'])
  })

  test('trusted, a graphql.config.js: the config script and the schema script run', { timeout: 120_000 }, async ({ skip }) => {
    skip(missing !== undefined, `graphql: ${missing}`)
    const w = await attach('trusted', { scriptConfig: true })
    expect(await titleHover(w)).toMatch(/Book\.title: String/)
    await waitForFile(`${w.root}/config.marker`, 60_000)
    await waitForFile(`${w.root}/schema.marker`, 60_000)
    expect(w.markers()).toEqual(['config.marker', 'schema.marker'])
  })
})
