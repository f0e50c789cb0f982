import type { SupportTable } from '../../policy/profile-operations.js'
import { bundledNodeServer, langserversExtractedVersion, runsBundled } from '../bundled.js'
import type { LanguageRecord } from '../record.js'

const none = (what: string) => ({ no: `stylesheets have no ${what}` })
const notYet = { no: 'the server has it; codeseam does not offer it until a test holds it to it' }

/** vscode-css-language-server: CSS, SCSS and Less outlines, lint diagnostics, formatting, hover. */
export const cssSupport: SupportTable = {
  definition: notYet,
  typeDefinition: none('types'),
  declaration: none('declarations'),
  implementation: none('implementations'),
  references: notYet,
  hover: true,
  signatureHelp: none('signatures'),
  documentSymbols: true,
  workspaceSymbols: { no: 'the CSS server outlines one document at a time' },
  prepareCallHierarchy: none('calls'),
  incomingCalls: none('calls'),
  outgoingCalls: none('calls'),
  prepareTypeHierarchy: none('types'),
  supertypes: none('types'),
  subtypes: none('types'),
  diagnostics: true,
  inlayHints: { no: 'the CSS server has no inlay hints' },
  completion: { no: 'the CSS server offers completion only to clients that insert snippets, and codeseam does not' },
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
  resolveCodeAction: { no: 'the CSS server resolves no code actions' },
}

export const cssRecord: LanguageRecord = {
  id: 'css',
  language: 'CSS / SCSS / Less',
  server: `vscode-css-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: cssSupport,
  locate: async () => bundledNodeServer('vscode-langservers-extracted', 'bin/vscode-css-language-server'),
  install: { command: 'pnpm install', source: 'dependency' },
  recognizes: (command, args) => runsBundled(command, args, 'vscode-langservers-extracted', 'vscode-css-language-server'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.css': 'css', '.scss': 'scss', '.less': 'less' },
    initializationOptions: { provideFormatter: true },
    settings: {
      css: { validate: true, format: { enable: true } },
      scss: { validate: true, format: { enable: true } },
      less: { validate: true, format: { enable: true } },
    },
  }),
  readiness: 'initialized',
  trust: {
    strip: [],
    why: 'the CSS server runs no workspace code and downloads nothing: it reads the stylesheets it is given and, for `@import` links, files by path',
    harden(draft) {
      draft.hardening.push('nothing to switch off (the server runs no workspace code)')
    },
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: [],
  grammar: [],
  fixture: 'css-basic',
  notes: 'outline, lint diagnostics (unknown properties, empty rules, …), formatting, hover',
}
