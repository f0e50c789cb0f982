import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord, langserversExtractedVersion } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'

/** vscode-css-language-server: CSS and Less outlines, lint diagnostics, formatting, hover (and SCSS formatting, as the SCSS record's companion). */
export const cssSupport: SupportTable = documentSupport({ files: 'stylesheets', verb: 'have' }, 'the CSS server', {
  definition: notYet,
  references: notYet,
  hover: true,
  documentSymbols: true,
  diagnostics: true,
  completion: { no: 'the CSS server offers completion only to clients that insert snippets, and codeseam does not' },
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
})

export const cssRecord: LanguageRecord = {
  id: 'css',
  order: 110,
  language: 'CSS / Less',
  server: `vscode-css-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: cssSupport,
  ...bundledServerRecord('vscode-langservers-extracted', 'bin/vscode-css-language-server', 'vscode-css-language-server'),
  profile: () => ({
    args: ['--stdio'],
    // `.scss` is the SCSS record's (some-sass-language-server, which follows `@use` across files); this server still
    // formats SCSS files beside it, as its companion, so its `scss` settings stay.
    extensions: { '.css': 'css', '.less': 'less' },
    initializationOptions: { provideFormatter: true },
    settings: {
      css: { validate: true, format: { enable: true } },
      scss: { validate: true, format: { enable: true } },
      less: { validate: true, format: { enable: true } },
    },
  }),
  ...inertNodeServer(
    'the CSS server runs no workspace code and downloads nothing: it reads the stylesheets it is given and, for `@import` links, files by path',
  ),
  fixture: 'css-basic',
  conformance: { language: 'css', expect: { runs: ['diagnostics', 'documentSymbols', 'format', 'hover'] } },
  notes: 'outline, lint diagnostics (unknown properties, empty rules, …), formatting, hover',
}
