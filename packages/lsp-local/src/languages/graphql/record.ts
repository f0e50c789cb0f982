import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'

import { canonical } from '../../profile/executables.js'
import { callHierarchy, codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installRoot, installedFolders, type ServerPackage } from '../install.js'
import type { DraftPlan, HardenContext, LanguageRecord, Located } from '../record.js'
import { configSection, editorSection, graphqlConfigFiles, graphqlRootSettings, ownConfigSection } from './config.js'

/**
 * The graphql-language-service-cli release `codeseam install graphql` puts in codeseam's cache. A pinned install, not
 * an npm dependency of @codeseam/lsp-local: about 136 MB (Babel, the Astro compiler, graphql-config's loaders), and
 * some of its dependencies declare Node.js 22 engines (it runs on Node.js 20).
 */
export const graphqlServerVersion = '3.5.0'

export const graphqlPackage: ServerPackage = { purl: `pkg:npm/graphql-language-service-cli@${graphqlServerVersion}`, bin: ['graphql-lsp'] }

const graphqlInstall = installRecipe('graphql', graphqlPackage).command

/** The server's command-line entry inside its installed package. */
const entryScript = () => nodePath.join(...installedFolders('graphql', graphqlPackage), 'bin', 'graphql.js')

const serverLacks = (what: string) => ({ no: `graphql-language-service-server has no ${what}` })

/** graphql-language-service-server: definition, hover, completion, outline, workspace symbols and validation diagnostics. */
export const graphqlSupport: SupportTable = codeSupport({
  typeDefinition: serverLacks('textDocument/typeDefinition'),
  declaration: serverLacks('textDocument/declaration'),
  implementation: serverLacks('textDocument/implementation'),
  references: serverLacks('references'),
  signatureHelp: serverLacks('signature help'),
  ...callHierarchy({ no: 'GraphQL has no calls', inLanguage: false }),
  // `inLanguage: false` only so that nothing is derived: GraphQL has interfaces, but the derivation (RFC 0010) does not
  // read its `implements A & B` (measured: supertypes of `type Book implements Item` came back empty, none unresolved).
  ...typeHierarchy({
    no: 'graphql-language-service-server has no type hierarchy, and none is derived (the derivation does not read `implements`)',
    inLanguage: false,
  }),
  inlayHints: serverLacks('inlay hints'),
  codeActions: serverLacks('code actions'),
  resolveCodeAction: serverLacks('code actions'),
  prepareRename: serverLacks('rename'),
  rename: serverLacks('rename'),
  format: serverLacks('formatter'),
})

/**
 * How codeseam starts the server: `node --import=<entry> <script> server -m stream`, the entry a module in a `data:`
 * URL (it can import only Node's built-ins and the server's own modules). The server loads its graphql-config (schema
 * and documents) only after `initialize`, when it is sent its settings, and answers nothing (empty lists) until then,
 * without a word: the entry reports that load as work-done progress, begun while it answers `initialize` and ended
 * when the first load is over (loaded or failed), so readiness waits for it.
 */
export function serverEntry(script: string): string[] {
  const code = [
    `import { createRequire } from 'node:module'`,
    `const { MessageProcessor } = createRequire(${JSON.stringify(script)})('graphql-language-service-server')`,
    `const progress = (processor, value) => processor._connection.sendNotification('$/progress', { token: 'codeseam-graphql-config', value })`,
    `const initialize = MessageProcessor.prototype.handleInitializeRequest`,
    `MessageProcessor.prototype.handleInitializeRequest = function (...args) { this.codeseamLoading = true; progress(this, { kind: 'begin', title: 'loading graphql-config' }); return initialize.apply(this, args) }`,
    `const load = MessageProcessor.prototype._initializeGraphQLCaches`,
    `MessageProcessor.prototype._initializeGraphQLCaches = async function (...args) { try { return await load.apply(this, args) } finally { if (this.codeseamLoading) { this.codeseamLoading = false; progress(this, { kind: 'end' }) } } }`,
  ].join('\n')
  return [`--import=data:text/javascript,${encodeURIComponent(code)}`, script]
}

const serverArgs = ['server', '-m', 'stream']

async function locateGraphql(): Promise<Located> {
  const script = entryScript()
  const leadingArgs = serverEntry(script)
  if (existsSync(script)) return { found: true, command: process.execPath, leadingArgs, version: graphqlServerVersion }
  return {
    found: false,
    command: process.execPath,
    leadingArgs,
    why: `graphql-language-service-cli is not installed in ${installRoot('graphql', graphqlPackage)}: install it with \`${graphqlInstall}\``,
  }
}

/**
 * Untrusted: the server reads codeseam's own graphql-config whatever the workspace or a profile says (`load.filepath`
 * is read instead of searching the root; the editor section, which the server spreads over it, is dropped), and runs
 * with codeseam's arguments only; an entry script inside the workspace is refused.
 */
function hardenGraphql(draft: DraftPlan, context: HardenContext): void {
  const script = draft.args.find((arg) => nodePath.basename(arg) === 'graphql.js' && nodePath.isAbsolute(arg))
  if (script === undefined || isWithin(context.workspaceRoot, canonical(script))) {
    throw context.refuse(
      'is not started through its command-line entry script outside the workspace, so its graphql-config cannot be chosen',
    )
  }
  draft.args = [...serverEntry(script), ...serverArgs]
  const { [editorSection]: _editor, ...settings } = draft.settings
  draft.settings = { ...settings, [configSection]: ownConfigSection(context.root) }
  draft.hardening.push(
    "graphql-config is codeseam's own (the root's .graphql, .graphqls and .gql files as SDL): the workspace's .graphqlrc*, graphql.config.* and package.json `graphql` key are not read",
  )
}

export const graphqlRecord: LanguageRecord = {
  id: 'graphql',
  order: 172,
  language: 'GraphQL',
  server: `graphql-language-service-cli (npm, ${graphqlServerVersion})`,
  support: graphqlSupport,
  locate: locateGraphql,
  install: graphqlPackage,
  recognizes: (command, args) => {
    const script = args.find((a) => !a.startsWith('-') && nodePath.basename(a) === 'graphql.js') ?? ''
    return nodePath.basename(command) === 'graphql-lsp' || /graphql-language-service-cli[\\/]bin[\\/]graphql\.js$/.test(script)
  },
  profile: () => ({
    args: serverArgs,
    extensions: { '.graphql': 'graphql', '.graphqls': 'graphql', '.gql': 'graphql' },
    rootMarkers: graphqlConfigFiles.filter((name) => name !== 'package.json'),
  }),
  // The answer to its `graphql-config` section for a root without a graphql-config of its own: codeseam's.
  rootSettings: graphqlRootSettings,
  readiness: 'progressQuiet',
  trust: {
    strip: [],
    why: "graphql-language-service-server loads the graphql-config it finds from the root up (`.graphqlrc*`, `graphql.config.*`, a package.json `graphql` key): a `.ts`/`.js` config is code it runs (jiti), a schema or documents pointer to a `.js`/`.ts` file is required by graphql-tools' code-file loader (code it runs), a URL pointer is fetched, a `dotEnvPath` setting loads a `.env`, and a JavaScript config's `locateCommand` runs on every definition. Its settings' `load.filepath` names the one file it reads instead: codeseam's own, JSON in codeseam's cache, whose schema and documents are globs of the root's GraphQL files (SDL, read by the GraphQL file loader; node_modules left out), so nothing of the workspace runs and nothing is fetched. It parses JavaScript only to find embedded queries (Babel, no execution), and codeseam sends it only GraphQL files",
    harden: hardenGraphql,
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: graphqlConfigFiles,
  // No rename to validate names for; GraphQL reserves no word (`type` or `query` may name a field).
  grammar: [],
  conformance: {
    language: 'graphql',
    expect: { runs: ['completion', 'definition', 'diagnostics', 'documentSymbols', 'hover', 'workspaceSymbols'] },
  },
  notes:
    "opt-in install (`codeseam install graphql`): definitions from operations to the schema, hover, completion, outline, workspace symbols and validation diagnostics, with the root's own graphql-config when trusted, else codeseam's (the root's GraphQL files as SDL); no references or rename",
}
