import { documentSupport, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord } from '../bundled.js'
import { documentNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'
import { mergeSettings } from '../settings.js'

/** The yaml-language-server release codeseam installs: the newest 1.x (2.0 needs Node 22). */
export const yamlServerVersion = '1.25.0'

/** yaml-language-server: outline, syntax (and schema) diagnostics, formatting, anchors. */
export const yamlSupport: SupportTable = documentSupport({ files: 'YAML', verb: 'has' }, 'yaml-language-server', {
  definition: true,
  declaration: { no: 'YAML has no declarations apart from definitions' },
  hover: true,
  documentSymbols: true,
  diagnostics: true,
  completion: true,
  codeActions: true,
  prepareRename: { no: 'yaml-language-server renames only anchors; codeseam does not offer it' },
  rename: { no: 'yaml-language-server renames only anchors; codeseam does not offer it' },
  format: true,
})

export const yamlRecord: LanguageRecord = {
  id: 'yaml',
  order: 90,
  language: 'YAML',
  server: `yaml-language-server (npm, ${yamlServerVersion})`,
  support: yamlSupport,
  ...bundledServerRecord('yaml-language-server', 'bin/yaml-language-server', 'yaml-language-server'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.yml': 'yaml', '.yaml': 'yaml' },
    // No schema store catalog; a remote schema a file names (`# yaml-language-server: $schema=https://…`) is
    // asked of the client (`clientContent`), which refuses: nothing is downloaded.
    clientContent: true,
    settings: {
      yaml: {
        validate: true,
        hover: true,
        completion: true,
        format: { enable: true },
        schemaStore: { enable: false },
        schemas: {},
        keyOrdering: false,
      },
      http: {},
    },
  }),
  ...documentNodeServer(),
  trust: {
    strip: [],
    why: 'yaml-language-server runs no workspace code; what it may fetch is a schema: the schema store is off and every remote schema is asked of the client, which refuses, at every trust level; codeseam associates no schemas',
    harden(draft) {
      const settings = mergeSettings(draft.settings, { yaml: { schemaStore: { enable: false } } })
      // Replaced, not merged: no association a profile made survives.
      settings['yaml'] = { ...(settings['yaml'] as Record<string, unknown>), schemas: {} }
      draft.settings = settings
      draft.hardening.push('no schema store', 'no remote schema is downloaded (the client refuses them)', 'no schema associations')
    },
  },
  fixture: 'yaml-basic',
  conformance: { language: 'yaml', expect: { runs: ['definition', 'diagnostics', 'documentSymbols', 'format', 'hover'] } },
  notes:
    'outline, syntax diagnostics, formatting (its bundled prettier), hover and completion from schemas a file names locally, anchor definitions; no schema store, no schema download',
}
