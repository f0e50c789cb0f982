import * as nodePath from 'node:path'

import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { goBinDirectories, installRecipe, installedCandidates, type ServerPackage } from '../install.js'
import { probeVersion } from '../lookup.js'
import type { LanguageRecord, Located, SymbolNaming } from '../record.js'
import { mergeSettings } from '../settings.js'
import { goPackagesProjectModel } from './project-model.js'
import { goLibraryRoots, goWorkEnvironment } from './toolchain.js'

/** The gopls release codeseam pins: the newest that installs on Go 1.26 (v0.24 needs Go 1.27). */
export const goplsVersion = 'v0.23.0'

const noTypeHierarchy = { no: 'gopls v0.23 has no type hierarchy' }

/** gopls v0.23. */
export const goplsSupport: SupportTable = codeSupport({
  declaration: { no: 'gopls has no textDocument/declaration (a Go name has one declaration: use definition)' },
  ...typeHierarchy(noTypeHierarchy),
})

/** `gopls version` (see probeVersion). */
function goplsVersionOf(executable: string): Promise<string | undefined> {
  return probeVersion(executable, ['version'], /gopls (v\d+\.\d+\.\d+\S*)/)
}

/**
 * The gopls commands a code action may run: edits through workspace/applyEdit (captured, previewed, approved) and
 * read-only queries. The others run code (go generate, tests, cgo), fetch and rewrite go.mod/go.sum straight on
 * disk with no edit to capture (tidy, go get, update_go_sum), or start an HTTP server (doc, assembly).
 */
export const goplsAllowedCommands: ReadonlyArray<string> = [
  'gopls.apply_fix',
  'gopls.add_import',
  'gopls.add_test',
  'gopls.change_signature',
  'gopls.extract_to_new_file',
  'gopls.implement_interface',
  'gopls.modify_tags',
  'gopls.move_type',
  'gopls.edit_go_directive',
  'gopls.views',
  'gopls.packages',
  'gopls.modules',
  'gopls.list_imports',
  'gopls.list_known_packages',
  'gopls.package_symbols',
  'gopls.workspace_stats',
  'gopls.mem_stats',
  'gopls.diagnose_files',
  'gopls.fetch_vulncheck_result',
]

/** Settings every root gets: workspace symbols from the workspace only, no vulnerability database, no code lenses. */
const goplsSettings = {
  // One diagnostics pass per change. By default gopls publishes a file's type errors at once and its analyzers'
  // findings (unusedwrite, printf, modernize hints, …) in a second push a second later (diagnosticsDelay 1s,
  // internal/server/diagnostics.go diagnoseSnapshot): a first answer taken after the first push, as
  // codeseam's quiet window takes it, missed every analyzer finding (the completeness oracle on gorilla-mux).
  diagnosticsDelay: '0s',
  symbolScope: 'workspace',
  linksInHover: false,
  vulncheck: 'Off',
  codelenses: {
    generate: false,
    regenerate_cgo: false,
    run_govulncheck: false,
    tidy: false,
    upgrade_dependency: false,
    vendor: false,
    test: false,
    vulncheck: false,
  },
  hints: {
    assignVariableTypes: true,
    compositeLiteralFields: true,
    compositeLiteralTypes: true,
    constantValues: true,
    functionTypeParameters: true,
    parameterNames: true,
    rangeVariableTypes: true,
  },
}

/**
 * Untrusted roots: the machine's toolchain, a read-only module graph, no module downloads (only the module cache),
 * no version-control fetches, no go/packages driver from PATH, and no cgo (its #cgo lines name compilers and
 * pkg-config flags). Verified against marker-writing fakes of each (docs/security.md).
 */
export const goUntrustedEnvironment: Readonly<Record<string, string>> = {
  GOTOOLCHAIN: 'local',
  GOFLAGS: '-mod=readonly',
  GOPROXY: 'off',
  GOVCS: '*:off',
  GOPACKAGESDRIVER: 'off',
  CGO_ENABLED: '0',
}

/** gopls' outline label of a method: `(*DemoStruct).Value`, `(Router).Match`, `(*List[T]).Push` — receiver type and method. */
const receiverMethod = /^\(\*?([\p{L}_][\p{L}\p{N}_]*)(?:\[[^\]]*\])?\)\.([\p{L}_][\p{L}\p{N}_]*)$/u

/**
 * A method as people aim at it: gopls labels `func (d *DemoStruct) Value()` `(*DemoStruct).Value` and lists it beside
 * its type; its name is `Value` and its container the receiver type `DemoStruct`, so `DemoStruct.Value` targets it.
 */
export const goplsSymbolName: SymbolNaming = (label) => {
  const method = receiverMethod.exec(label)
  return method === null ? undefined : { name: method[2] ?? label, containerName: method[1] ?? '' }
}

/** gopls from the Go module proxy, into Go's bin folder. */
export const goplsPackage: ServerPackage = { purl: `pkg:golang/golang.org/x/tools/gopls@${goplsVersion}`, bin: ['gopls'] }

export const goplsInstall = installRecipe('gopls', goplsPackage).command

export const goplsRecord: LanguageRecord = {
  id: 'gopls',
  order: 60,
  language: 'Go',
  server: `gopls ${goplsVersion}`,
  support: goplsSupport,
  async locate(): Promise<Located> {
    const tried: string[] = []
    for (const candidate of installedCandidates('gopls', goplsPackage)) {
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
  install: goplsPackage,
  recognizes: (command) => nodePath.basename(command) === 'gopls',
  libraries: goLibraryRoots,
  symbolName: goplsSymbolName,
  profile: () => ({
    args: ['serve'],
    extensions: { '.go': 'go' },
    rootMarkers: ['go.work', 'go.mod'],
    // gopls reads its options from initialization options and workspace/configuration: both, the same.
    initializationOptions: goplsSettings,
    settings: { gopls: goplsSettings },
  }),
  projectRoot: 'workspace',
  // gopls holds every request until its initial load is done; a failed load keeps an "Error loading workspace"
  // progress open until it is fixed, so waiting for progress to end could wait forever.
  projectModel: goPackagesProjectModel,
  readiness: 'initialized',
  allowedCommands: goplsAllowedCommands,
  workspaceEnvironment: goWorkEnvironment,
  trust: {
    strip: [
      'GOFLAGS',
      'GOTOOLCHAIN',
      'GOENV',
      'GOWORK',
      'GO111MODULE',
      'GOPRIVATE',
      'GONOPROXY',
      'GONOSUMDB',
      'GOINSECURE',
      'GOAUTH',
      'GOSUMDB',
      'GOVULNDB',
      'GOEXPERIMENT',
      'CGO_CFLAGS',
      'CGO_CPPFLAGS',
      'CGO_CXXFLAGS',
      'CGO_LDFLAGS',
      'CGO_CFLAGS_ALLOW',
      'CGO_LDFLAGS_ALLOW',
      'CC',
      'CXX',
      'PKG_CONFIG',
    ],
    why: 'gopls runs the go command: it downloads and runs the toolchain a go.mod `toolchain` line names, fetches modules and VCS repositories, rewrites go.mod/go.sum, runs a go/packages driver found on PATH and, for cgo, the C compiler and pkg-config that #cgo lines name; go generate and tests run only through commands codeseam never runs',
    harden(draft) {
      // The machine's own toolchain (never one a go.mod or go.work names), a module graph nothing rewrites or
      // fetches, no VCS, no packages driver, no C compiler or pkg-config that #cgo lines name.
      Object.assign(draft.env, goUntrustedEnvironment)
      draft.settings = mergeSettings(draft.settings, { gopls: { buildFlags: [], env: { GOPACKAGESDRIVER: 'off' } } })
      draft.initializationOptions = mergeSettings(draft.initializationOptions, { buildFlags: [], env: { GOPACKAGESDRIVER: 'off' } })
      draft.hardening.push(...Object.entries(goUntrustedEnvironment).map(([name, value]) => `${name}=${value}`), 'gopls buildFlags empty')
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
    onPath: /^(gopls|go)$/,
  },
  projectFiles: ['go.mod', 'go.sum', 'go.work', 'go.work.sum'],
  grammar: [builtInFactsFor('go')],
  fixture: 'go-basic',
  conformance: { language: 'go', expect: { skipped: ['declaration'] } },
  notes:
    "every operation but declaration and type hierarchy; `bash scripts/run.sh test` installs it when missing; found on PATH or in `$(go env GOPATH)/bin`; untrusted roots get the machine's own toolchain (GOTOOLCHAIN=local) and a read-only module graph (GOFLAGS=-mod=readonly)",
}
