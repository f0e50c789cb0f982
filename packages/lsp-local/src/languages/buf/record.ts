import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { goBinDirectories, installRecipe, installedCandidates, type ServerPackage } from '../install.js'
import { probeVersion } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'
import { offlineProxy } from '../settings.js'
import { configWalkLimit, walkTree } from '../tree-walk.js'

/** The buf release codeseam installs from the Go module proxy; its `buf lsp serve` is the protobuf server. */
export const bufVersion = 'v1.75.0'

/** buf from the Go module proxy, into Go's bin folder. */
export const bufPackage: ServerPackage = { purl: `pkg:golang/github.com/bufbuild/buf/cmd/buf@${bufVersion}`, bin: ['buf'] }

export const bufInstall = installRecipe('buf', bufPackage).command

/** buf's language server: outline, definitions and references of messages, compile and lint diagnostics, `buf format`. */
export const bufSupport: SupportTable = documentSupport({ files: 'protobuf files', verb: 'have' }, "buf's server", {
  definition: true,
  typeDefinition: notYet,
  references: true,
  hover: notYet,
  documentSymbols: true,
  workspaceSymbols: notYet,
  diagnostics: true,
  completion: notYet,
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
})

/** `buf --version` (see probeVersion). */
function bufVersionOf(executable: string): Promise<string | undefined> {
  return probeVersion(executable, ['--version'], /^(\d+\.\d+\.\d+\S*)/m)
}

async function locateBuf(): Promise<Located> {
  const tried: string[] = []
  for (const candidate of installedCandidates('buf', bufPackage)) {
    const version = await bufVersionOf(candidate)
    if (version !== undefined) return { found: true, command: candidate, version }
    tried.push(candidate)
  }
  const why =
    tried.length === 0
      ? `buf is neither on PATH nor in ${goBinDirectories().join(', ')}`
      : `${tried.join(', ')} did not answer \`buf --version\` (not a working buf)`
  return { found: false, command: 'buf', why: `${why}: install it with \`${bufInstall}\` (Go 1.26)` }
}

/**
 * The buf configuration files in the tree that make buf run programs: `plugins:` (check plugins, executables
 * buf runs for lint and breaking-change checks) and `policies:` (which bring plugins of their own).
 * `undefined` when the walk hit its limit.
 */
export function bufPluginConfigs(root: string): string[] | undefined {
  const found: string[] = []
  const complete = walkTree(root, (entry, path) => {
    if (entry.isDirectory() || !/^buf(\.work)?\.ya?ml$/.test(entry.name)) return
    let text = ''
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      return
    }
    if (/^(plugins|policies)\s*:/m.test(text)) found.push(path)
  })
  return complete ? found.sort() : undefined
}

export const bufRecord: LanguageRecord = {
  id: 'buf',
  order: 170,
  language: 'Protocol Buffers',
  server: `buf ${bufVersion} (\`buf lsp serve\`)`,
  support: bufSupport,
  locate: locateBuf,
  install: bufPackage,
  recognizes: (command, args) => nodePath.basename(command) === 'buf' && args.includes('lsp'),
  profile: () => ({
    args: ['lsp', 'serve', '--log-format', 'text'],
    extensions: { '.proto': 'proto' },
    // buf fetches a module's remote dependencies (`deps:` in buf.yaml) from the Buf Schema Registry by itself:
    // every request goes to a closed loopback port, at every trust level. A dependency already in buf's cache is
    // still used.
    env: offlineProxy,
  }),
  readiness: 'initialized',
  // Code actions are not offered; should they be, none of buf's commands (generate, dependency updates) may run.
  allowedCommands: [],
  trust: {
    strip: ['BUF_TOKEN', 'BUF_CACHE_DIR', 'BUF_CONFIG_DIR'],
    why: 'buf compiles and lints in process and runs no workspace code unless a buf.yaml names check plugins or policies (executables buf runs): an untrusted root with such a file is refused; remote dependencies are never downloaded (its proxy is a closed loopback port); its code lenses and commands (`buf generate`, dependency updates) are never used',
    harden(draft, context) {
      const configs = bufPluginConfigs(context.workspaceRoot)
      if (configs === undefined) {
        throw context.refuse(`needs the tree checked for buf.yaml files that name plugins, and it has more than ${configWalkLimit} folders`)
      }
      if (configs.length > 0) {
        const named = configs.slice(0, 3).map((file) => nodePath.relative(context.workspaceRoot, file))
        throw context.refuse(
          `would run the check plugins ${named.join(', ')}${configs.length > 3 ? ` and ${configs.length - 3} more` : ''} name${configs.length === 1 ? 's' : ''} (buf runs them as programs for lint)`,
          'remove or vet those plugins',
        )
      }
      draft.hardening.push('the tree holds no buf.yaml naming plugins or policies (checked)', 'no remote dependency is downloaded')
    },
  },
  memory: { kind: 'go' },
  environment: { passed: [], onPath: /^buf$/ },
  projectFiles: ['buf.yaml', 'buf.work.yaml', 'buf.lock'],
  grammar: [],
  fixture: 'proto-basic',
  conformance: { language: 'proto', expect: { runs: ['definition', 'diagnostics', 'documentSymbols', 'format', 'references'] } },
  notes:
    'outline, definitions and references of messages and services, compile errors and `buf lint` findings, `buf format`; `codeseam install buf` installs it from the Go module proxy; an untrusted root whose buf.yaml names check plugins is refused',
}
