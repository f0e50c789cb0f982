import * as nodePath from 'node:path'

import { documentSupport, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installRoot, installedCandidates, installedFolders, type ServerPackage } from '../install.js'
import type { LanguageRecord, Located } from '../record.js'
import { mergeSettings, offlineProxy } from '../settings.js'

/** The taplo release codeseam builds: crates.io's `taplo-cli`, whose default features include the language server. */
export const taploVersion = '0.10.0'

/** taplo from crates.io, built into codeseam's cache: outside any clone, one build per machine. */
export const taploPackage: ServerPackage = { purl: `pkg:cargo/taplo-cli@${taploVersion}`, bin: ['taplo'] }

/** Where `codeseam install taplo` puts it. */
export function taploCacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return installRoot('taplo', taploPackage, env)
}

export const taploInstall = installRecipe('taplo', taploPackage).command

const fromSchemas = { no: 'taplo answers it from JSON schemas, and codeseam loads none (nothing is downloaded)' }

/** taplo: outline, syntax diagnostics, formatting. */
export const taploSupport: SupportTable = documentSupport({ files: 'TOML', verb: 'has' }, 'taplo', {
  hover: fromSchemas,
  documentSymbols: true,
  diagnostics: true,
  completion: fromSchemas,
  codeActions: { no: 'taplo has no code actions codeseam offers' },
  prepareRename: { no: 'taplo renames keys only with a schema; codeseam does not offer it' },
  rename: { no: 'taplo renames keys only with a schema; codeseam does not offer it' },
  format: true,
})

async function locateTaplo(): Promise<Located> {
  const [found] = installedCandidates('taplo', taploPackage)
  if (found !== undefined) {
    return { found: true, command: found, ...(found.startsWith(taploCacheRoot()) ? { version: taploVersion } : {}) }
  }
  return {
    found: false,
    command: 'taplo',
    why: `taplo is neither on PATH nor in ${installedFolders('taplo', taploPackage).join(', ')}: build it with \`${taploInstall}\` (a few minutes, once per machine)`,
  }
}

export const taploRecord: LanguageRecord = {
  id: 'taplo',
  order: 160,
  language: 'TOML',
  server: `taplo (crates.io \`taplo-cli\` ${taploVersion})`,
  support: taploSupport,
  locate: locateTaplo,
  install: taploPackage,
  recognizes: (command, args) => nodePath.basename(command) === 'taplo' && args.includes('lsp'),
  profile: () => ({
    args: ['lsp', 'stdio'],
    extensions: { '.toml': 'toml' },
    initializationOptions: { configurationSection: 'evenBetterToml' },
    // taplo initializes each workspace folder with its DEFAULT settings while it answers `initialize` — schemas
    // on, the schema store catalog fetched — before it asks for codeseam's. Every HTTP(S) request it makes goes to
    // a proxy on the discard port, which refuses: nothing is downloaded, at either trust level.
    env: offlineProxy,
    settings: {
      // Schemas are off at every trust level: taplo would fetch a catalog and any `#:schema https://…` a file names.
      evenBetterToml: { schema: { enabled: false, catalogs: [], associations: {} }, formatter: {} },
    },
  }),
  readiness: 'initialized',
  trust: {
    strip: [],
    why: 'taplo runs no workspace code; what it may fetch is JSON schemas (the schema store catalog it loads while it answers `initialize`, a `#:schema` URL, a `.taplo.toml` association): its HTTP(S) proxy is a closed loopback port and schemas are off, at every trust level; for an untrusted root the workspace `.taplo.toml` is not read once the settings arrive',
    harden(draft) {
      draft.settings = mergeSettings(draft.settings, {
        evenBetterToml: { schema: { enabled: false, catalogs: [] }, taplo: { configFile: { enabled: false } } },
      })
      draft.hardening.push('no schemas (none downloaded)', 'the workspace .taplo.toml is not read')
    },
  },
  memory: { kind: 'none', why: 'taplo (Rust) has no heap limit; the process-tree memory ceiling applies' },
  environment: { passed: [], onPath: /^taplo$/ },
  projectFiles: [],
  grammar: [],
  fixture: 'toml-basic',
  conformance: { language: 'toml', expect: { runs: ['diagnostics', 'documentSymbols', 'format'] } },
  notes:
    'outline, syntax diagnostics, formatting; no schemas (nothing is downloaded), so no hover or completion; `codeseam install taplo` builds it from crates.io',
}
