import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { builtInFactsFor, isWithin } from '@codeseam/lsp'

import { canonical } from '../../profile/executables.js'
import { callHierarchy, codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installRoot, installedFolders, type ServerPackage } from '../install.js'
import { packageDir } from '../lookup.js'
import type { DraftPlan, HardenContext, LanguageRecord, Located } from '../record.js'
import { isRecord, mergeSettings, offlineProxy } from '../settings.js'
import { typeScriptSettings } from '../typescript/grammar.js'

/**
 * The @astrojs/language-server release `codeseam install astro` puts in codeseam's cache. A pinned install, not an
 * npm dependency of @codeseam/lsp-local: it brings about 50 MB of its own (Volar, its services, yaml-language-server,
 * Prettier) for a framework fewer projects use; its TypeScript is codeseam's own all the same (`typescript.tsdk`).
 */
export const astroServerVersion = '2.17.3'

export const astroPackage: ServerPackage = { purl: `pkg:npm/@astrojs/language-server@${astroServerVersion}`, bin: ['astro-ls'] }

export const astroInstall = installRecipe('astro', astroPackage).command

/** The server's entry script inside its installed package. */
const entryScript = () => nodePath.join(...installedFolders('astro', astroPackage), 'bin', 'nodeServer.js')

/** @astrojs/language-server: TypeScript's answers through astro2tsx (Volar), and the HTML and CSS services'. */
export const astroSupport: SupportTable = codeSupport({
  declaration: { no: '@astrojs/language-server does not answer textDocument/declaration' },
  ...typeHierarchy({ no: '@astrojs/language-server has no type hierarchy' }),
  // Measured on the bare server: prepareCallHierarchy finds the function, incomingCalls answers [] even for a caller in its file.
  ...callHierarchy({ no: '@astrojs/language-server 2.17.3 answers no incoming calls (an empty list even for a caller in the same file)' }),
  format: { no: "@astrojs/language-server formats only with the workspace's own prettier-plugin-astro, which it imports" },
})

/** The `lib` folder of the TypeScript codeseam ships (its own dependency), or undefined when it is not installed. */
export function ownTypeScriptLib(): string | undefined {
  const dir = packageDir('typescript')
  return dir === undefined ? undefined : nodePath.join(dir, 'lib')
}

async function locateAstro(): Promise<Located> {
  const script = entryScript()
  if (existsSync(script))
    return { found: true, command: process.execPath, leadingArgs: serverEntry(script, false), version: astroServerVersion }
  return {
    found: false,
    command: process.execPath,
    leadingArgs: serverEntry(script, false),
    why: `@astrojs/language-server is not installed in ${installRoot('astro', astroPackage)}: install it with \`${astroInstall}\``,
  }
}

/**
 * How codeseam starts the server: `node --import=<entry> <script> --stdio`, the entry a module in a `data:` URL (it
 * can import only Node's built-ins). It sends `console.info` to stderr: the server's stdio connection redirects
 * console.log, .warn and .error but not .info, which the server uses to say an @astrojs/svelte or @astrojs/vue
 * integration is missing, and on stdout that breaks the protocol. For an untrusted root it also throws the server's
 * own untrusted switch (`setIsTrusted(false)` in its importPackage module, which the server never calls), so every
 * package it would look up in the workspace's node_modules is looked up nowhere.
 */
export function serverEntry(script: string, untrusted: boolean): string[] {
  const code = [
    `import { createRequire } from 'node:module'`,
    `import { format } from 'node:util'`,
    `console.info = (...args) => process.stderr.write(format(...args) + '\\n')`,
    ...(untrusted ? [`createRequire(${JSON.stringify(script)})('../dist/importPackage.js').setIsTrusted(false)`] : []),
  ].join('\n')
  return [`--import=data:text/javascript,${encodeURIComponent(code)}`, script]
}

function hardenAstro(draft: DraftPlan, context: HardenContext): void {
  const script = draft.args.find((arg) => nodePath.basename(arg) === 'nodeServer.js' && nodePath.isAbsolute(arg))
  if (script === undefined || isWithin(context.workspaceRoot, canonical(script))) {
    throw context.refuse(
      "is not started through its entry script outside the workspace, so its untrusted switch cannot be thrown (it would import the workspace's packages)",
    )
  }
  const tsdk = ownTypeScriptLib()
  if (tsdk === undefined) {
    throw context.refuse(
      "would load the workspace's TypeScript because no TypeScript is installed with codeseam",
      'install typescript next to @codeseam/lsp-local',
    )
  }
  const rest = draft.args.slice(draft.args.indexOf(script) + 1)
  draft.args = [...serverEntry(script, true), ...rest]
  const options = isRecord(draft.initializationOptions) ? draft.initializationOptions : {}
  draft.initializationOptions = mergeSettings({ ...options, contentIntellisense: false }, { typescript: { tsdk } })
  Object.assign(draft.env, offlineProxy)
  draft.hardening.push(
    "typescript.tsdk is codeseam's own TypeScript",
    "the server's untrusted switch is on: astro, prettier, prettier-plugin-astro, @astrojs/svelte and @astrojs/vue are never imported from the workspace (no formatting, no Svelte or Vue component types)",
    'content collection schemas off',
  )
}

export const astroRecord: LanguageRecord = {
  id: 'astro',
  order: 87,
  language: 'Astro',
  server: `@astrojs/language-server (npm, ${astroServerVersion}) with codeseam's TypeScript`,
  support: astroSupport,
  locate: locateAstro,
  install: astroPackage,
  recognizes: (command, args) => {
    const script = args.find((a) => !a.startsWith('-') && nodePath.basename(a) === 'nodeServer.js') ?? ''
    return nodePath.basename(command) === 'astro-ls' || /@astrojs[\\/]language-server[\\/]bin[\\/]nodeServer\.js$/.test(script)
  },
  profile: () => {
    const tsdk = ownTypeScriptLib()
    return {
      args: ['--stdio'],
      extensions: { '.astro': 'astro' },
      rootMarkers: ['astro.config.mjs', 'astro.config.ts', 'astro.config.js', 'tsconfig.json', 'package.json'],
      // The server refuses to start without `typescript.tsdk`: codeseam's own TypeScript, never the workspace's.
      initializationOptions: { ...(tsdk === undefined ? {} : { typescript: { tsdk } }), contentIntellisense: false },
      settings: typeScriptSettings,
      // Volar reads http(s) documents through request-light, which honours these: nothing is downloaded.
      env: offlineProxy,
    }
  },
  readiness: 'initialized',
  trust: {
    strip: [],
    why: "@astrojs/language-server resolves `astro`, `prettier`, `prettier-plugin-astro`, `@astrojs/svelte` and `@astrojs/vue` from the workspace's node_modules and imports the last four (a package.json `exports` entry can make even the first run code), and Prettier's `resolveConfig` imports a workspace's JavaScript config; its `typescript.tsdk` names the TypeScript it loads. It never imports astro.config.*. Volar fetches http(s) documents itself",
    harden: hardenAstro,
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: ['astro.config.mjs', 'astro.config.ts', 'astro.config.js', 'tsconfig.json', 'package.json'],
  grammar: [builtInFactsFor('astro')],
  conformance: { language: 'astro', expect: { skipped: ['callHierarchy', 'declaration', 'format', 'typeHierarchy'] } },
  notes: `opt-in install (\`codeseam install astro\`): definitions, references, hover, outline and diagnostics across \`.astro\` components (TypeScript through astro2tsx, with codeseam's own TypeScript); no formatting (it needs the workspace's prettier-plugin-astro)`,
}
