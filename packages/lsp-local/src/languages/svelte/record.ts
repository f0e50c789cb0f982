import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord, runsBundled } from '../bundled.js'
import { typeScriptSettings } from '../typescript/grammar.js'
import type { LanguageRecord } from '../record.js'
import { isRecord, mergeSettings } from '../settings.js'

/**
 * The svelte-language-server release codeseam ships. An npm dependency of @codeseam/lsp-local, not a pinned install:
 * TypeScript is its peer dependency, which pnpm resolves to the `typescript` codeseam already ships (so its
 * `require('typescript')` is ours, never a workspace's), and what it adds beyond that is about 34 MB (svelte 4,
 * prettier, svelte2tsx, the CSS and HTML services).
 */
export const svelteServerVersion = '0.18.4'

/** svelte-language-server: TypeScript's answers through svelte2tsx, plus the Svelte compiler's and the CSS and HTML services'. */
export const svelteSupport: SupportTable = codeSupport({
  declaration: { no: 'svelte-language-server does not answer textDocument/declaration' },
  ...typeHierarchy({ no: 'svelte-language-server has no type hierarchy' }),
})

/**
 * The server's own settings (`svelte.plugin`), as initialization options and as settings: Svelte compiler
 * diagnostics and TypeScript's answers on; what reads Prettier's configuration stays as the trust rule leaves it.
 */
const sveltePlugin = {
  typescript: { enable: true, diagnostics: { enable: true }, hover: { enable: true }, documentSymbols: { enable: true } },
  svelte: { enable: true, diagnostics: { enable: true }, format: { enable: true } },
  css: { enable: true },
  html: { enable: true },
}

/** Everything below `svelte.plugin` that calls Prettier's `resolveConfig` (which imports a workspace's JavaScript config): off. */
const noPrettierConfig = {
  typescript: { completions: { enable: false }, codeActions: { enable: false } },
  svelte: { format: { enable: false }, codeActions: { enable: false } },
  html: { completions: { enable: false } },
}

export const svelteRecord: LanguageRecord = {
  id: 'svelte',
  order: 83,
  language: 'Svelte',
  server: `svelte-language-server (npm, ${svelteServerVersion}) with codeseam's TypeScript`,
  support: svelteSupport,
  ...bundledServerRecord('svelte-language-server', 'bin/server.js', 'svelteserver'),
  // Its bin (`svelteserver`) is the package's `bin/server.js`: either names it.
  recognizes: (command, args) =>
    runsBundled(command, args, 'svelte-language-server', 'svelteserver') ||
    runsBundled(command, args, 'svelte-language-server', 'server.js'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.svelte': 'svelte' },
    rootMarkers: ['svelte.config.js', 'svelte.config.mjs', 'svelte.config.ts', 'tsconfig.json', 'jsconfig.json', 'package.json'],
    // TypeScript's editor preferences (inlay hints on) under `typescript` and `javascript`, as the server reads them.
    initializationOptions: { configuration: { ...typeScriptSettings, svelte: { plugin: sveltePlugin } } },
    settings: { ...typeScriptSettings, svelte: { plugin: sveltePlugin } },
  }),
  readiness: 'initialized',
  trust: {
    strip: [],
    why: "svelte-language-server imports the workspace's svelte.config.* and vite.config.* (JavaScript it runs), requires the workspace's own `svelte` compiler, `prettier` and `svelte-preprocess` from its node_modules, and Prettier's `resolveConfig` (completion, code actions, formatting) imports a `.prettierrc.js`/`prettier.config.*` or the shared config a `.prettierrc` or package.json names; its TypeScript is its peer dependency, codeseam's own, never the workspace's, and it loads no tsconfig plugins",
    harden(draft) {
      // `isTrusted: false` (the server's own untrusted mode): no config file is imported, and svelte, prettier and
      // svelte-preprocess resolve only from the server's own dependencies.
      const options = isRecord(draft.initializationOptions) ? draft.initializationOptions : {}
      draft.initializationOptions = mergeSettings(
        { ...options, isTrusted: false },
        { configuration: { svelte: { plugin: noPrettierConfig } } },
      )
      draft.settings = mergeSettings(draft.settings, { svelte: { plugin: noPrettierConfig } })
      draft.hardening.push(
        'the server runs untrusted: svelte.config.* and vite.config.* are not imported, and svelte, prettier and svelte-preprocess load from its own dependencies only',
        'completion, code actions and formatting off (they import the Prettier configuration a workspace names)',
      )
    },
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: ['svelte.config.js', 'svelte.config.mjs', 'svelte.config.ts', 'tsconfig.json', 'jsconfig.json', 'package.json'],
  grammar: [builtInFactsFor('svelte')],
  conformance: { language: 'svelte', expect: { skipped: ['declaration', 'typeHierarchy'] } },
  notes:
    "definitions, references, hover, outline, rename, call hierarchy and diagnostics across `.svelte` components and their `<script>` (TypeScript through svelte2tsx, with codeseam's own TypeScript); for trusted roots also Svelte compiler warnings, completion, code actions and formatting (each reads the workspace's Prettier configuration, which may be JavaScript, so an untrusted root gets none)",
}
