import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'

/** The dockerfile-language-server-nodejs release codeseam installs. */
export const dockerfileServerVersion = '0.15.0'

/** dockerfile-language-server-nodejs: outline, its own validator's diagnostics, formatting, hover on instructions. */
export const dockerfileSupport: SupportTable = documentSupport({ files: 'Dockerfiles', verb: 'have' }, 'the Dockerfile server', {
  definition: notYet,
  hover: true,
  signatureHelp: notYet,
  documentSymbols: true,
  diagnostics: true,
  completion: true,
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
})

export const dockerfileRecord: LanguageRecord = {
  id: 'dockerfile',
  order: 150,
  language: 'Dockerfile',
  server: `dockerfile-language-server-nodejs (npm, ${dockerfileServerVersion})`,
  support: dockerfileSupport,
  ...bundledServerRecord('dockerfile-language-server-nodejs', 'bin/docker-langserver', 'docker-langserver'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.dockerfile': 'dockerfile' },
    fileNames: { Dockerfile: 'dockerfile', Containerfile: 'dockerfile', dockerfile: 'dockerfile' },
  }),
  ...inertNodeServer(
    'the Dockerfile server runs no workspace code and downloads nothing: it parses the file it is given (image names become links it hands back, never fetches)',
  ),
  fixture: 'dockerfile-basic',
  conformance: { language: 'dockerfile', expect: { runs: ['completion', 'diagnostics', 'documentSymbols', 'format', 'hover'] } },
  notes:
    'outline (build stages and instructions), diagnostics from its own validator, formatting, hover and completion on instructions; routes `Dockerfile`, `Containerfile` and `*.dockerfile`',
}
