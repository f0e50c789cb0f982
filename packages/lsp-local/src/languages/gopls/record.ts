import { execFile } from 'node:child_process'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import type { SupportTable } from '../../policy/profile-operations.js'
import { absolutePathEntries, executablesNamed } from '../lookup.js'
import { words, type LanguageRecord, type Located } from '../record.js'
import { mergeSettings } from '../settings.js'

/** The gopls release codeseam pins: the newest that installs on Go 1.26 (v0.24 needs Go 1.27). */
export const goplsVersion = 'v0.23.0'

const noTypeHierarchy = { no: 'gopls v0.23 has no type hierarchy' }

/** gopls v0.23. */
export const goplsSupport: SupportTable = {
  definition: true,
  typeDefinition: true,
  declaration: { no: 'gopls has no textDocument/declaration (a Go name has one declaration: use definition)' },
  implementation: true,
  references: true,
  hover: true,
  signatureHelp: true,
  documentSymbols: true,
  workspaceSymbols: true,
  prepareCallHierarchy: true,
  incomingCalls: true,
  outgoingCalls: true,
  prepareTypeHierarchy: noTypeHierarchy,
  supertypes: noTypeHierarchy,
  subtypes: noTypeHierarchy,
  diagnostics: true,
  inlayHints: true,
  completion: true,
  codeActions: true,
  prepareRename: true,
  rename: true,
  format: true,
  resolveCodeAction: true,
}

/** Where `go install` puts binaries: $GOBIN, else each $GOPATH entry's bin, else ~/go/bin (without running go). */
export function goBinDirectories(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  if (env['GOBIN'] !== undefined && env['GOBIN'] !== '') return [env['GOBIN']]
  const gopath =
    env['GOPATH'] !== undefined && env['GOPATH'] !== '' ? env['GOPATH'].split(nodePath.delimiter) : [nodePath.join(homedir(), 'go')]
  return gopath.filter((dir) => nodePath.isAbsolute(dir)).map((dir) => nodePath.join(dir, 'bin'))
}

const probed = new Map<string, Promise<string | undefined>>()

/** `gopls version` (the binary's own report, run outside any workspace, bounded, once per path). */
function goplsVersionOf(executable: string): Promise<string | undefined> {
  let probe = probed.get(executable)
  if (probe === undefined) {
    probe = new Promise((resolve) => {
      execFile(executable, ['version'], { encoding: 'utf8', timeout: 10_000, cwd: homedir(), windowsHide: true }, (error, out) => {
        const match = /gopls (v\d+\.\d+\.\d+\S*)/.exec(typeof out === 'string' ? out : '')
        resolve(error === null ? match?.[1] : undefined)
      })
    })
    probed.set(executable, probe)
  }
  return probe
}

export const goplsInstall = `go install golang.org/x/tools/gopls@${goplsVersion}`

export const goplsRecord: LanguageRecord = {
  id: 'gopls',
  language: 'Go',
  server: `gopls ${goplsVersion}`,
  support: goplsSupport,
  async locate(): Promise<Located> {
    const candidates = [...executablesNamed('gopls', absolutePathEntries()), ...executablesNamed('gopls', goBinDirectories())]
    const tried: string[] = []
    for (const candidate of [...new Set(candidates)]) {
      const version = await goplsVersionOf(candidate)
      if (version !== undefined) return { found: true, command: candidate, version }
      tried.push(candidate)
    }
    const why =
      tried.length === 0
        ? `gopls is neither on PATH nor in ${goBinDirectories().join(', ')}`
        : `${tried.join(', ')} did not answer \`gopls version\` (not a working gopls)`
    return { found: false, command: 'gopls', why: `${why}: install it with \`${goplsInstall}\` (Go 1.26)` }
  },
  install: { command: goplsInstall, source: 'go', lands: '$(go env GOPATH)/bin (usually ~/go/bin), found there without PATH' },
  recognizes: (command) => nodePath.basename(command) === 'gopls',
  profile: () => ({
    args: ['serve'],
    extensions: { '.go': 'go' },
    rootMarkers: ['go.work', 'go.mod'],
    loadAllProjects: 'goPackages',
    settings: {
      gopls: {
        // One diagnostics pass per change. By default gopls publishes a file's type errors at once and its analyzers'
        // findings (unusedwrite, printf, modernize hints, …) in a second push a second later (diagnosticsDelay 1s,
        // internal/server/diagnostics.go diagnoseSnapshot): a first answer taken after the first push, as
        // codeseam's quiet window takes it, missed every analyzer finding (the completeness oracle on gorilla-mux).
        diagnosticsDelay: '0s',
        hints: {
          assignVariableTypes: true,
          compositeLiteralFields: true,
          compositeLiteralTypes: true,
          constantValues: true,
          functionTypeParameters: true,
          parameterNames: true,
          rangeVariableTypes: true,
        },
      },
    },
  }),
  projectRoot: 'workspace',
  readiness: 'progressQuiet',
  trust: {
    strip: ['GOFLAGS', 'GOTOOLCHAIN', 'GOENV', 'GOWORK', 'CGO_CFLAGS', 'CGO_LDFLAGS', 'CC', 'CXX', 'PKG_CONFIG'],
    why: 'gopls runs the go command, which can download and run the toolchain a go.mod `toolchain` line names and rewrite go.mod/go.sum; go generate, tests and vulnerability scans run only through commands codeseam refuses for untrusted roots',
    harden(draft) {
      // The machine's own toolchain (never one a go.mod or go.work names) and a module graph nothing rewrites.
      draft.env['GOTOOLCHAIN'] = 'local'
      draft.env['GOFLAGS'] = '-mod=readonly'
      draft.settings = mergeSettings(draft.settings, {
        gopls: {
          vulncheck: 'Off',
          codelenses: {
            generate: false,
            test: false,
            run_govulncheck: false,
            vulncheck: false,
            tidy: false,
            upgrade_dependency: false,
            vendor: false,
            regenerate_cgo: false,
          },
        },
      })
      draft.hardening.push(
        'GOTOOLCHAIN=local (the machine toolchain, never one the workspace names)',
        'GOFLAGS=-mod=readonly (go.mod and go.sum are never rewritten)',
        'vulnerability scanning off',
      )
    },
  },
  memory: { kind: 'go' },
  environment: {
    passed: [
      'GOPATH',
      'GOROOT',
      'GOBIN',
      'GOCACHE',
      'GOMODCACHE',
      'GOFLAGS',
      'GOTOOLCHAIN',
      'GOWORK',
      'GOENV',
      'GOPROXY',
      'GONOSUMDB',
      'GONOPROXY',
      'GOPRIVATE',
      'GOINSECURE',
      'GOSUMDB',
      'GO111MODULE',
      'CGO_ENABLED',
      'GOOS',
      'GOARCH',
    ],
  },
  projectFiles: ['go.mod', 'go.sum', 'go.work', 'go.work.sum'],
  grammar: [
    {
      languageIds: ['go'],
      identifier: /^[\p{L}_][\p{L}\p{Nd}_]*$/u,
      keywords: words(
        'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
      ),
      comments: { line: ['//'], block: [['/*', '*/']] },
    },
  ],
  fixture: 'go-basic',
  notes:
    "every operation but declaration and type hierarchy; `bash scripts/run.sh test` installs it when missing; found on PATH or in `$(go env GOPATH)/bin`; untrusted roots get the machine's own toolchain (GOTOOLCHAIN=local) and a read-only module graph (GOFLAGS=-mod=readonly)",
}
