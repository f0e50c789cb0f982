import type { SupportTable } from '../../policy/profile-operations.js'
import { bundledNodeServer, runsBundled } from '../bundled.js'
import type { LanguageRecord } from '../record.js'

/** The dockerfile-language-server-nodejs release codeseam installs. */
export const dockerfileServerVersion = '0.15.0'

const none = (what: string) => ({ no: `Dockerfiles have no ${what}` })
const notYet = { no: 'the server has it; codeseam does not offer it until a test holds it to it' }

/** dockerfile-language-server-nodejs: outline, its own validator's diagnostics, formatting, hover on instructions. */
export const dockerfileSupport: SupportTable = {
  definition: notYet,
  typeDefinition: none('types'),
  declaration: none('declarations apart from definitions'),
  implementation: none('implementations'),
  references: { no: 'the Dockerfile server has no references' },
  hover: true,
  signatureHelp: notYet,
  documentSymbols: true,
  workspaceSymbols: { no: 'the Dockerfile server outlines one file at a time' },
  prepareCallHierarchy: none('calls'),
  incomingCalls: none('calls'),
  outgoingCalls: none('calls'),
  prepareTypeHierarchy: none('types'),
  supertypes: none('types'),
  subtypes: none('types'),
  diagnostics: true,
  inlayHints: { no: 'the Dockerfile server has no inlay hints' },
  completion: true,
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
  resolveCodeAction: { no: 'the Dockerfile server resolves no code actions' },
}

export const dockerfileRecord: LanguageRecord = {
  id: 'dockerfile',
  language: 'Dockerfile',
  server: `dockerfile-language-server-nodejs (npm, ${dockerfileServerVersion})`,
  support: dockerfileSupport,
  locate: async () => bundledNodeServer('dockerfile-language-server-nodejs', 'bin/docker-langserver'),
  install: { command: 'pnpm install', source: 'dependency' },
  recognizes: (command, args) => runsBundled(command, args, 'dockerfile-language-server-nodejs', 'docker-langserver'),
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.dockerfile': 'dockerfile' },
    fileNames: { Dockerfile: 'dockerfile', Containerfile: 'dockerfile', dockerfile: 'dockerfile' },
  }),
  readiness: 'initialized',
  trust: {
    strip: [],
    why: 'the Dockerfile server runs no workspace code and downloads nothing: it parses the file it is given (image names become links it hands back, never fetches)',
    harden(draft) {
      draft.hardening.push('nothing to switch off (the server runs no workspace code)')
    },
  },
  memory: { kind: 'node' },
  environment: { passed: [] },
  projectFiles: [],
  grammar: [],
  fixture: 'dockerfile-basic',
  notes:
    'outline (build stages and instructions), diagnostics from its own validator, formatting, hover and completion on instructions; routes `Dockerfile`, `Containerfile` and `*.dockerfile`',
}
