import { documentSupport, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord, langserversExtractedVersion } from '../bundled.js'
import { documentNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'
import { mergeSettings } from '../settings.js'

/** vscode-json-language-server: a configuration file's outline, syntax and schema diagnostics, formatting. */
export const jsonSupport: SupportTable = documentSupport({ files: 'JSON', verb: 'has' }, 'the JSON server', {
  hover: true,
  documentSymbols: true,
  diagnostics: true,
  completion: { no: 'the JSON server completes only from a schema, which codeseam does not associate' },
  codeActions: { no: 'the JSON server offers no code actions without a schema' },
  format: true,
  resolveCodeAction: { no: 'the JSON server offers no code actions without a schema' },
})

export const jsonRecord: LanguageRecord = {
  id: 'json',
  order: 100,
  language: 'JSON',
  server: `vscode-json-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: jsonSupport,
  ...bundledServerRecord('vscode-langservers-extracted', 'bin/vscode-json-language-server', 'vscode-json-language-server'),
  profile: () => ({
    args: ['--stdio'],
    // JSON with comments for every file: tsconfig.json and most editor configs carry comments, which strict JSON
    // would report as errors (so a comment in a strict JSON file is not reported; trailing commas are warnings).
    extensions: { '.json': 'jsonc', '.jsonc': 'jsonc' },
    // The server reads `file:` schemas a document names itself; any other scheme it asks the client for
    // (`vscode/content`), which codeseam refuses: no schema is downloaded.
    initializationOptions: { provideFormatter: true, handledSchemaProtocols: ['file'] },
    settings: { json: { validate: { enable: true }, format: { enable: true }, schemas: [] }, http: {} },
  }),
  ...documentNodeServer(),
  trust: {
    strip: [],
    why: 'the JSON server runs no workspace code; what it may fetch is a schema a document names: for an untrusted root it reads none itself (every schema goes through the client, which refuses), and codeseam associates no schemas',
    harden(draft) {
      draft.initializationOptions = mergeSettings(draft.initializationOptions, { handledSchemaProtocols: [] })
      draft.settings = mergeSettings(draft.settings, { json: { schemas: [] } }) as Record<string, unknown>
      draft.hardening.push('no schema is read or downloaded (every schema request is refused)', 'no schema associations')
    },
  },
  fixture: 'json-basic',
  conformance: { language: 'json', expect: { runs: ['diagnostics', 'documentSymbols', 'format', 'hover'] } },
  notes:
    "outline, syntax diagnostics, formatting, hover; every `.json` file is read as JSON with comments (a comment is not reported, a trailing comma is a warning); schemas only from a document's own local `$schema`, never downloaded",
}
