import type { SupportTable } from '../../policy/profile-operations.js'
import { bundledNodeServer, langserversExtractedVersion, runsBundled } from '../bundled.js'
import type { LanguageRecord } from '../record.js'

const notYet = { no: 'the server has it; codeseam does not offer it until a test holds it to it' }
const none = (what: string) => ({ no: `HTML has no ${what}` })

/** vscode-html-language-server: the document's outline, formatting, hover; diagnostics of embedded CSS and script only. */
export const htmlSupport: SupportTable = {
  definition: notYet,
  typeDefinition: none('types'),
  declaration: none('declarations'),
  implementation: none('implementations'),
  references: notYet,
  hover: true,
  signatureHelp: notYet,
  documentSymbols: true,
  workspaceSymbols: { no: 'the HTML server outlines one document at a time' },
  prepareCallHierarchy: none('calls'),
  incomingCalls: none('calls'),
  outgoingCalls: none('calls'),
  prepareTypeHierarchy: none('types'),
  supertypes: none('types'),
  subtypes: none('types'),
  diagnostics: true,
  inlayHints: { no: 'the HTML server has no inlay hints' },
  completion: { no: 'the HTML server offers completion only to clients that insert snippets, and codeseam does not' },
  codeActions: { no: 'the HTML server offers no code actions' },
  prepareRename: notYet,
  rename: notYet,
  format: true,
  resolveCodeAction: { no: 'the HTML server offers no code actions' },
}

export const htmlRecord: LanguageRecord = {
  id: 'html',
  language: 'HTML',
  server: `vscode-html-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: htmlSupport,
  locate: async () => bundledNodeServer('vscode-langservers-extracted', 'bin/vscode-html-language-server'),
  install: { command: 'pnpm install', source: 'dependency' },
  recognizes: (command, args) => runsBundled(command, args, 'vscode-langservers-extracted', 'vscode-html-language-server'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.html': 'html', '.htm': 'html' },
    initializationOptions: { provideFormatter: true, embeddedLanguages: { css: true, javascript: true } },
    settings: { html: { validate: { scripts: true, styles: true }, format: { enable: true } }, css: {}, javascript: {} },
  }),
  readiness: 'initialized',
  trust: {
    strip: [],
    why: 'the HTML server runs no workspace code and downloads nothing: it reads the documents it is given (embedded scripts are analysed by a bundled TypeScript, never run)',
    harden(draft) {
      draft.hardening.push('nothing to switch off (the server runs no workspace code)')
    },
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: [],
  grammar: [],
  fixture: 'html-basic',
  notes:
    'outline (elements and embedded functions), formatting, hover; diagnostics only for embedded `<style>` and `<script>` (HTML itself is not validated)',
}
