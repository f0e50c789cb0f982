import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installRoot, installedCandidates, type ServerPackage } from '../install.js'
import { probeVersion, toolchainLines } from '../lookup.js'
import type { HardenContext, LanguageRecord, LibraryRoot, Located } from '../record.js'
import { mergeSettings } from '../settings.js'
import { statPrint } from '../tree-walk.js'
import { configWalkLimit, judgeRustConfigs, userSysroot, type RustConfigJudgement } from './untrusted.js'

/** The rust-analyzer release codeseam builds: crates.io's `ra_ap_rust-analyzer`, the newest declaring rust-version 1.95. */
export const rustAnalyzerVersion = '0.0.348'

/** Where the project's own install script puts it: outside any clone, so every checkout on the machine reuses one build. */
export function rustAnalyzerCacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return installRoot('rust-analyzer', rustAnalyzerPackage, env)
}

/** rust-analyzer from crates.io, built into codeseam's cache. */
export const rustAnalyzerPackage: ServerPackage = { purl: `pkg:cargo/ra_ap_rust-analyzer@${rustAnalyzerVersion}`, bin: ['rust-analyzer'] }

export const rustAnalyzerInstall = installRecipe('rust-analyzer', rustAnalyzerPackage).command

/** rust-analyzer. */
export const rustAnalyzerSupport: SupportTable = codeSupport({
  ...typeHierarchy({ no: 'rust-analyzer has no type hierarchy' }),
})

/**
 * `rust-analyzer --version` (see probeVersion). The rustup proxy that `~/.cargo/bin/rust-analyzer` is on machines
 * without the component fails here ("Unknown binary 'rust-analyzer' in official toolchain"), which is how it is
 * told apart from a real server.
 */
function rustAnalyzerVersionOf(executable: string): Promise<string | undefined> {
  return probeVersion(executable, ['--version'], /^rust-analyzer (\S+)/m)
}

let rustLibraries: Promise<ReadonlyArray<LibraryRoot>> | undefined

/** The default toolchain's sources (`rustc --print sysroot`) and cargo's registry and git checkouts. */
function rustLibraryRoots(): Promise<ReadonlyArray<LibraryRoot>> {
  rustLibraries ??= toolchainLines('rustc', ['--print', 'sysroot']).then((lines) => {
    const cargoHome =
      process.env['CARGO_HOME'] !== undefined && process.env['CARGO_HOME'] !== ''
        ? process.env['CARGO_HOME']
        : nodePath.join(homedir(), '.cargo')
    const sysroot = lines?.[0]
    return [
      ...(sysroot === undefined ? [] : [{ path: sysroot, library: 'Rust toolchain' }]),
      { path: nodePath.join(cargoHome, 'registry'), library: 'crates.io dependency (cargo registry)' },
      { path: nodePath.join(cargoHome, 'git'), library: 'git dependency (cargo checkout)' },
    ]
  })
  return rustLibraries
}

/** A path as a refusal names it: relative to the workspace when inside it. */
function named(file: string, workspaceRoot: string): string {
  const relative = nodePath.relative(workspaceRoot, file)
  return relative.startsWith('..') || nodePath.isAbsolute(relative) ? file : relative
}

/** Refuses a root whose Rust configuration could not be judged, names a program or an environment, or overrides codeseam's settings. */
function refuseUnsafe(judged: RustConfigJudgement | undefined, context: HardenContext): asserts judged is RustConfigJudgement {
  if (judged === undefined) {
    throw context.refuse(
      `needs the tree checked for .cargo/config.toml and rust-analyzer.toml, and it has more than ${configWalkLimit} folders`,
    )
  }
  if (judged.refused.length > 0) {
    const keys = judged.refused.map((entry) => {
      const at = entry.indexOf(': ')
      return `${named(entry.slice(0, at), context.workspaceRoot)}${entry.slice(at)}`
    })
    throw context.refuse(
      `would obey ${keys.slice(0, 6).join('; ')}${keys.length > 6 ? ` and ${keys.length - 6} more` : ''} (cargo configuration that chooses a program or an environment cargo or rustc would run with, or that codeseam does not know)`,
      'remove those keys (a configuration that only sets flags, aliases, sources or profiles is served) or vet them',
    )
  }
  if (judged.analyzerConfigs.length > 0) {
    const files = judged.analyzerConfigs.map((file) => named(file, context.workspaceRoot))
    throw context.refuse(
      `would obey ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''} (a rust-analyzer.toml overrides codeseam's settings, re-enabling cargo check and build scripts)`,
      'remove or vet those files',
    )
  }
}

export const rustAnalyzerRecord: LanguageRecord = {
  id: 'rust-analyzer',
  order: 70,
  language: 'Rust',
  server: `rust-analyzer (crates.io \`ra_ap_rust-analyzer\` ${rustAnalyzerVersion})`,
  support: rustAnalyzerSupport,
  async locate(): Promise<Located> {
    const stand: string[] = []
    for (const candidate of installedCandidates('rust-analyzer', rustAnalyzerPackage)) {
      const version = await rustAnalyzerVersionOf(candidate)
      // A build from crates.io reports 0.0.0 (no release tag): ours is the pinned crate version.
      const ours = version === '0.0.0' && candidate.startsWith(rustAnalyzerCacheRoot())
      if (version !== undefined) return { found: true, command: candidate, version: ours ? rustAnalyzerVersion : version }
      stand.push(candidate)
    }
    const why =
      stand.length === 0
        ? `rust-analyzer is neither on PATH nor in ${nodePath.join(rustAnalyzerCacheRoot(), 'bin')}`
        : `${stand.join(', ')} cannot run (\`--version\` fails: the rustup proxy without the rust-analyzer component, which cannot be downloaded here)`
    return {
      found: false,
      command: 'rust-analyzer',
      why: `${why}: build it with \`${rustAnalyzerInstall}\` (about 12 minutes on 2 cores, once per machine)`,
    }
  },
  install: rustAnalyzerPackage,
  recognizes: (command) => nodePath.basename(command) === 'rust-analyzer',
  libraries: rustLibraryRoots,
  profile: () => ({
    args: [],
    extensions: { '.rs': 'rust' },
    rootMarkers: ['Cargo.toml', 'rust-project.json'],
    // Its file loader reads a file it is told changed on a thread of its own: the next request can run first.
    changesThroughDocuments: true,
    initializationOptions: {
      // No `cargo check` on every save: diagnostics come from rust-analyzer's own analysis.
      checkOnSave: false,
      inlayHints: { parameterHints: { enable: true }, typeHints: { enable: true } },
    },
  }),
  projectRoot: 'workspace',
  // It tells when it has finished indexing (quiescent) only to clients that ask.
  clientCapabilities: { experimental: { serverStatusNotification: true } },
  readiness: 'serverStatus',
  trust: {
    strip: [
      'RUSTC',
      'CARGO',
      'RUSTC_WRAPPER',
      'RUSTC_WORKSPACE_WRAPPER',
      'RUSTFLAGS',
      'RUSTDOCFLAGS',
      'CARGO_ENCODED_RUSTFLAGS',
      'CARGO_BUILD_RUSTC',
      'CARGO_BUILD_RUSTC_WRAPPER',
      'CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER',
      'CARGO_BUILD_RUSTFLAGS',
      'RUST_SRC_PATH',
    ],
    why: 'build scripts and procedural macros are workspace code that rust-analyzer compiles and runs; `cargo check` runs them too; a workspace rust-toolchain.toml makes the rustup proxies choose (and install) a toolchain; a .cargo/config.toml in the tree or above it can set the rustc, its wrappers, linkers and (with `[env] force`) its environment, and a workspace rust-analyzer.toml overrides the client settings',
    harden(draft, context) {
      // Files no setting or variable neutralises: judged, and refused naming file and key (docs/security.md, "rust-analyzer").
      const judge = () => judgeRustConfigs(context.workspaceRoot, draft.env)
      const judged = judge()
      refuseUnsafe(judged, context)
      // Judged again at a question when anything it read (or a folder it walked) changed since: a file that now
      // names a program refuses the root, and a changed configuration restarts the server on it.
      let watched = judged.watched
      let seen = statPrint(watched)
      const read = statPrint(judged.cargoFiles)
      draft.stale = () => {
        const now = statPrint(watched)
        if (now === seen) return false
        const again = judge()
        if (again === undefined || again.refused.length > 0 || again.analyzerConfigs.length > 0) return true
        if (again.cargoFiles.join('|') !== judged.cargoFiles.join('|') || statPrint(again.cargoFiles) !== read) return true
        watched = again.watched
        seen = statPrint(watched)
        return false
      }
      // The machine's own toolchain by absolute path, whatever rust-toolchain.toml says: rustup then never resolves
      // (or installs) a channel, cargo runs no rustc a workspace names, and rust-analyzer never runs
      // `rustup component add rust-src` (an explicit cargo.sysroot turns its discovery off).
      const sysroot = userSysroot(context.safePath, draft.env)
      const pinned: Record<string, string> = {
        RUSTUP_AUTO_INSTALL: '0',
        RUSTC_WRAPPER: '',
        RUSTC_WORKSPACE_WRAPPER: '',
        CARGO_BUILD_RUSTC_WRAPPER: '',
        CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER: '',
      }
      if (sysroot !== undefined) {
        const rustc = nodePath.join(sysroot, 'bin', 'rustc')
        Object.assign(pinned, { RUSTUP_TOOLCHAIN: sysroot, RUSTC: rustc, CARGO_BUILD_RUSTC: rustc })
        const cargo = nodePath.join(sysroot, 'bin', 'cargo')
        if (existsSync(cargo)) pinned['CARGO'] = cargo
      } else if (draft.env['RUSTUP_TOOLCHAIN'] === undefined) pinned['RUSTUP_TOOLCHAIN'] = 'stable'
      Object.assign(draft.env, pinned)
      draft.initializationOptions = mergeSettings(draft.initializationOptions, {
        cargo: { buildScripts: { enable: false }, ...(sysroot === undefined ? {} : { sysroot }) },
        procMacro: { enable: false, attributes: { enable: false } },
        checkOnSave: false,
        check: { invocationStrategy: 'once' },
      })
      draft.hardening.push(
        'build scripts off (cargo.buildScripts.enable=false)',
        'procedural macros off (procMacro.enable=false, attributes too)',
        'no cargo check on save',
        sysroot === undefined
          ? `toolchain pinned (RUSTUP_TOOLCHAIN=${draft.env['RUSTUP_TOOLCHAIN']}; a workspace rust-toolchain.toml is ignored)`
          : `toolchain pinned to ${sysroot} (RUSTUP_TOOLCHAIN, RUSTC, CARGO, cargo.sysroot; a workspace rust-toolchain.toml is ignored, nothing is installed)`,
        'no rustc wrappers (RUSTC_WRAPPER and RUSTC_WORKSPACE_WRAPPER empty)',
        judged.cargoFiles.length === 0
          ? 'no cargo configuration in the tree or above it; no rust-analyzer.toml (checked)'
          : `cargo configuration judged: ${judged.cargoFiles.map((file) => named(file, context.workspaceRoot)).join(', ')} choose no program and no environment; no rust-analyzer.toml (checked)`,
      )
    },
  },
  memory: { kind: 'none', why: 'rust-analyzer has no heap limit; the process-tree memory ceiling applies' },
  environment: {
    passed: ['CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'RUST_SRC_PATH', 'CARGO_TARGET_DIR'],
    onPath: /^(rust-analyzer|cargo|rustc|rustup)$/,
  },
  projectFiles: ['Cargo.toml', 'Cargo.lock', 'rust-project.json', 'rust-toolchain.toml', 'rust-toolchain', '.cargo/config.toml'],
  grammar: [
    {
      ...builtInFactsFor('rust'),
      // checkOnSave is off at every trust level (above): the diagnostics are rust-analyzer's own analysis.
      diagnosticsLimit:
        "rust-analyzer's own analysis only (codeseam runs no `cargo check`): many compiler errors — type, trait and borrow errors, uses inside macro_rules! bodies — are not seen; run `cargo check` to confirm",
    },
  ],
  fixture: 'rust-basic',
  conformance: {
    language: 'rust',
    limits: {
      typeHierarchy:
        "rust-analyzer has no type hierarchy, and the one codeseam derives reads a type's bases from its declaration header, where Rust names no traits (`impl Shape for Circle` does)",
    },
    expect: { skipped: ['typeHierarchy'] },
  },
  notes:
    'every operation but type hierarchy; `bash scripts/run.sh test` builds it when missing (about 12 minutes on 2 cores, once per machine); queries wait until its own status says it finished indexing (never a partial first answer); a server whose own status reports an error is UNAVAILABLE quoting it, a warning makes answers `degraded`; untrusted roots: no build scripts, no proc macros, no cargo check, the machine toolchain pinned by absolute path, and a cargo configuration (in the tree, above it, or included) whose keys name a program or an environment, or any `rust-analyzer.toml`, is refused naming file and key (flags-only configurations are served); without the `rust-src` component (`rustup component add rust-src`) standard-library types are not navigable',
}
