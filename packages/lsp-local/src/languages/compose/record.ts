import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord } from '../record.js'

/** The compose-language-service release codeseam installs: the newest 0.x (1.0 needs Node 22). */
export const composeServerVersion = '0.4.0'

/**
 * The names Docker Compose reads by default, and their override files (compose-spec: `compose.yaml` preferred,
 * `docker-compose.yml` for compatibility, `*.override.*` merged on top): routed by name, since their extension is
 * YAML's. Other names (`docker-compose.prod.yml`) stay YAML files.
 */
export const composeFileNames: ReadonlyArray<string> = ['compose', 'docker-compose', 'compose.override', 'docker-compose.override'].flatMap(
  (base) => [`${base}.yaml`, `${base}.yml`],
)

/** compose-language-service: hover on Compose keys, its own YAML diagnostics, formatting; the outline from the YAML server. */
export const composeSupport: SupportTable = documentSupport({ files: 'Compose files', verb: 'have' }, 'compose-language-service', {
  hover: true,
  // Answered by the YAML server beside it (its companion): see `companions` below.
  documentSymbols: { no: 'compose-language-service has no outline (the YAML server answers it, as its companion)' },
  diagnostics: true,
  completion: notYet,
  codeActions: { no: 'compose-language-service offers no code actions' },
  format: true,
})

export const composeRecord: LanguageRecord = {
  id: 'compose',
  order: 155,
  language: 'Docker Compose',
  server: `compose-language-service (npm, ${composeServerVersion})`,
  support: composeSupport,
  ...bundledServerRecord('@microsoft/compose-language-service', 'bin/docker-compose-langserver', 'docker-compose-langserver'),
  profile: () => ({
    args: ['--stdio'],
    extensions: {},
    fileNames: Object.fromEntries(composeFileNames.map((name) => [name, 'dockercompose'])),
    // The YAML server answers the outline of a Compose file (compose-language-service has none): the same
    // yaml-language-server that serves the other YAML files, given the file as YAML.
    companions: [{ id: 'yaml', operations: ['documentSymbols'] }],
  }),
  ...inertNodeServer(
    'compose-language-service runs no workspace code and downloads nothing: it parses the file it is given (image names become links to Docker Hub it hands back, never fetches); its telemetry goes to the client only',
  ),
  conformance: { language: 'dockercompose', expect: { runs: ['diagnostics', 'documentSymbols', 'format', 'hover'] } },
  notes:
    'hover on Compose keys, YAML diagnostics, formatting; the outline comes from the YAML server beside it; routes `compose.yaml`, `docker-compose.yml` and their `.override` files by name (other names stay YAML)',
}
