import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord, langserversExtractedVersion } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'

/** vscode-html-language-server: the document's outline, formatting, hover; diagnostics of embedded CSS and script only. */
export const htmlSupport: SupportTable = documentSupport({ files: 'HTML', verb: 'has' }, 'the HTML server', {
  definition: notYet,
  references: notYet,
  hover: true,
  signatureHelp: notYet,
  documentSymbols: true,
  diagnostics: true,
  completion: { no: 'the HTML server offers completion only to clients that insert snippets, and codeseam does not' },
  prepareRename: notYet,
  rename: notYet,
  format: true,
})

export const htmlRecord: LanguageRecord = {
  id: 'html',
  order: 120,
  language: 'HTML',
  server: `vscode-html-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: htmlSupport,
  ...bundledServerRecord('vscode-langservers-extracted', 'bin/vscode-html-language-server', 'vscode-html-language-server'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.html': 'html', '.htm': 'html' },
    initializationOptions: { provideFormatter: true, embeddedLanguages: { css: true, javascript: true } },
    settings: { html: { validate: { scripts: true, styles: true }, format: { enable: true } }, css: {}, javascript: {} },
  }),
  ...inertNodeServer(
    'the HTML server runs no workspace code and downloads nothing: it reads the documents it is given (embedded scripts are analysed by a bundled TypeScript, never run)',
  ),
  fixture: 'html-basic',
  conformance: {
    language: 'html',
    // HTML itself is not validated: no diagnostics check.
    expect: { runs: ['documentSymbols', 'format', 'hover'] },
  },
  notes:
    'outline (elements and embedded functions), formatting, hover; diagnostics only for embedded `<style>` and `<script>` (HTML itself is not validated)',
}
