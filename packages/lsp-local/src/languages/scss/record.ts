import { builtInFactsFor } from '@codeseam/lsp'

import { callHierarchy, codeSupport, notYet, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'

/**
 * The some-sass-language-server release codeseam ships: an npm dependency of @codeseam/lsp-local (one package of
 * 2.8 MB with no dependencies of its own, bundled; 2.2 s to add with pnpm, 3.5 s with npm into an empty folder).
 */
export const scssServerVersion = '2.3.8'

/**
 * some-sass-language-server: Sass modules across files (`@use`, `@forward`, their namespaces and prefixes) on top of
 * its own copy of the CSS language service (outline, lint, hover); no formatter (the CSS server formats, as its
 * companion).
 */
export const scssSupport: SupportTable = codeSupport({
  declaration: { no: 'some-sass-language-server does not answer textDocument/declaration' },
  typeDefinition: { no: 'SCSS has no types', inLanguage: false },
  implementation: { no: 'SCSS has no implementations', inLanguage: false },
  ...callHierarchy({ no: 'some-sass-language-server has no call hierarchy' }),
  ...typeHierarchy({ no: 'SCSS has no types', inLanguage: false }),
  inlayHints: { no: 'some-sass-language-server has no inlay hints' },
  codeActions: notYet,
  resolveCodeAction: notYet,
  // Answered by the CSS server beside it (its companion): see `companions` below.
  format: { no: 'some-sass-language-server does not format (the CSS server answers it, as its companion)' },
})

export const scssRecord: LanguageRecord = {
  id: 'scss',
  order: 112,
  language: 'SCSS',
  server: `some-sass-language-server (npm, ${scssServerVersion})`,
  support: scssSupport,
  ...bundledServerRecord('some-sass-language-server', 'bin/some-sass-language-server', 'some-sass-language-server'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.scss': 'scss' },
    // The server asks for the `somesass` and `editor` sections when initialized and fails on an empty answer (no
    // workspace scan, so no definitions across files and no diagnostics): its defaults, said.
    settings: {
      somesass: { workspace: { exclude: ['**/.git/**', '**/node_modules/**'], logLevel: 'warn' } },
      editor: { insertSpaces: true, tabSize: 2, indentSize: 2 },
    },
    // It formats nothing: the CSS server (the CSS record's, which serves `.css` and `.less`) formats SCSS beside it.
    companions: [{ id: 'css', operations: ['format'] }],
  }),
  ...inertNodeServer(
    'some-sass-language-server runs no workspace code and downloads nothing: it reads the stylesheets under the root (node_modules and .git left out) and, for `@use`, `@forward`, `@import` and `pkg:` URLs, the files and package.json `exports` they lead to',
  ),
  grammar: [builtInFactsFor('scss')],
  conformance: {
    language: 'scss',
    expect: {
      skipped: [
        'callHierarchy',
        'codeActions',
        'declaration',
        'implementation',
        'inlayHints',
        'resolveCodeAction',
        'typeDefinition',
        'typeHierarchy',
      ],
    },
  },
  notes:
    'definitions, references, rename and workspace symbols across files through `@use` and `@forward` (namespaces, prefixes), hover (with SassDoc), outline, lint diagnostics, completion, signature help; formatting from the CSS server beside it (`.sass` indented files are not routed)',
}
