/**
 * The component servers (Svelte, Astro) against their attack workspaces, through the host's public API: for an
 * untrusted root no workspace code runs (config files, the workspace's own compiler, Prettier and its config, a
 * package.json `exports` trick, a framework's editor integration, a TypeScript of its own) while queries answer; for a
 * trusted root the same workspace's code does run (so each attack is real).
 */
import { LspError, createLsp } from '@codeseam/lsp'
import { describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type TrustLevel } from '../src/index.js'
import { positionOf } from './helpers.js'
import { cleanupsAfterEach } from './support/cleanups.js'
import { prepareAttack, waitForFile } from './fixtures/untrusted/prepare.js'

const cleanups = cleanupsAfterEach()

async function attach(name: 'svelte' | 'astro', trust: TrustLevel) {
  const attack = prepareAttack(name)
  const host = await createLocalHost({})
  const lsp = createLsp()
  cleanups.push(
    attack.remove,
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root: attack.root, trust }])
  return { ...attack, lsp }
}

/** The query's answer, or its error: a trusted root running the traps may break the server, which is not the point. */
async function settled<T>(promise: Promise<T>): Promise<T | LspError> {
  try {
    return await promise
  } catch (error) {
    if (error instanceof LspError) return error
    throw error
  }
}

const astroMissing = (await builtinProfiles()).find((p) => p.id === 'astro')?.unavailable

describe('svelte-language-server', () => {
  test(
    'untrusted: no config file, compiler, Prettier, Prettier config or TypeScript of the workspace runs',
    { timeout: 180_000 },
    async () => {
      const w = await attach('svelte', 'untrusted')
      const app = 'src/App.svelte'
      const hover = await w.lsp.query({ operation: 'hover', root: w.root, path: app, position: positionOf(w.root, app, 'double(21)') })
      expect(hover.hover?.contents).toMatch(/double/)
      const definition = await w.lsp.query({
        operation: 'definition',
        root: w.root,
        path: app,
        position: positionOf(w.root, app, 'double(21)'),
      })
      expect(definition.locations.map((l) => l.path)).toEqual([`${w.root}/src/Counter.svelte`])
      // What reads Prettier's configuration: completion, code actions and formatting.
      await w.lsp.query({ operation: 'completion', root: w.root, path: app, position: positionOf(w.root, app, 'toFixed') })
      await w.lsp.query({ operation: 'format', root: w.root, path: app, options: { tabSize: 2, insertSpaces: true } })
      await w.lsp.query({
        operation: 'codeActions',
        root: w.root,
        path: app,
        range: { start: positionOf(w.root, app, 'double(21)'), end: positionOf(w.root, app, 'double(21)') },
      })
      await w.lsp.query({ operation: 'diagnostics', root: w.root, path: app })
      expect(w.markers()).toEqual([])
    },
  )

  test('trusted: the workspace svelte.config.js runs (the documented behaviour)', { timeout: 180_000 }, async () => {
    const w = await attach('svelte', 'trusted')
    const app = 'src/App.svelte'
    await settled(w.lsp.query({ operation: 'hover', root: w.root, path: app, position: positionOf(w.root, app, 'double(21)') }))
    await waitForFile(`${w.root}/svelte-config.marker`, 60_000)
    expect(w.markers()).toContain('svelte-config.marker')
  })
})

describe('@astrojs/language-server', () => {
  test(
    'untrusted: no package of the workspace is imported (astro, Prettier, its plugin, @astrojs/svelte, TypeScript)',
    { timeout: 180_000 },
    async ({ skip }) => {
      skip(astroMissing !== undefined, `astro: ${astroMissing}`)
      const w = await attach('astro', 'untrusted')
      const page = 'src/pages/index.astro'
      const hover = await w.lsp.query({ operation: 'hover', root: w.root, path: page, position: positionOf(w.root, page, 'title =') })
      expect(hover.hover?.contents).toMatch(/title/)
      const definition = await w.lsp.query({
        operation: 'definition',
        root: w.root,
        path: page,
        position: positionOf(w.root, page, 'salutation={'),
      })
      expect(definition.locations.map((l) => l.path)).toEqual([`${w.root}/src/components/Greeting.astro`])
      await w.lsp.query({ operation: 'hover', root: w.root, path: page, position: positionOf(w.root, page, 'Widget label') })
      await w.lsp.query({ operation: 'diagnostics', root: w.root, path: page })
      expect(w.markers()).toEqual([])
    },
  )

  test(
    'trusted: the workspace package.json `exports` trick and the @astrojs/svelte integration run',
    { timeout: 180_000 },
    async ({ skip }) => {
      skip(astroMissing !== undefined, `astro: ${astroMissing}`)
      const w = await attach('astro', 'trusted')
      const page = 'src/pages/index.astro'
      await settled(w.lsp.query({ operation: 'hover', root: w.root, path: page, position: positionOf(w.root, page, 'Widget label') }))
      await waitForFile(`${w.root}/astrojs-svelte-editor.marker`, 60_000)
      expect(w.markers()).toEqual(expect.arrayContaining(['astro-exports.marker', 'astrojs-svelte-editor.marker']))
    },
  )
})
