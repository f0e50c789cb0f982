// What a cargo configuration makes cargo or rustc run, judged for an untrusted root (docs/security.md,
// "rust-analyzer"). Cargo reads `.cargo/config` and `.cargo/config.toml` in the folder it runs in and every folder
// above it, then `$CARGO_HOME/config.toml`, and the files their `include` key names (relative to the including
// file). For an untrusted root rust-analyzer compiles, links and runs nothing of the workspace (build scripts,
// proc macros and `cargo check` off): what is left is `cargo metadata` and the rustc queries cargo and
// rust-analyzer make (`rustc -vV`, `--print cfg`, `--print sysroot`). A key is allowed only when it chooses no
// program and no environment for those; every other key — and any key codeseam does not know — is refused, named.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'
import { parse } from 'smol-toml'

type Table = Record<string, unknown>

/** What one file (and the files it includes) was judged to do. */
export interface CargoConfigVerdict {
  /** Every file read (the file itself and what it includes, recursively). */
  readonly files: ReadonlyArray<string>
  /** `<file>: <key>` for each key refused (the key dotted as cargo names it). */
  readonly refused: ReadonlyArray<string>
  /** Every path looked at, existing or not (an include not there yet): watched for changes. */
  readonly considered: ReadonlyArray<string>
}

const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Keys that choose a program cargo, rustc or a cargo subcommand would run, or an environment for them. */
const programs = new Set([
  'build.rustc',
  'build.rustc-wrapper',
  'build.rustc-workspace-wrapper',
  'build.rustdoc',
  'doc.browser',
  'net.git-fetch-with-cli',
  'registry.credential-provider',
  'registry.global-credential-providers',
])

/**
 * Keys (tables: every key under them) that choose nothing cargo or rustc runs during `cargo metadata` and the
 * rustc queries; each is explained in docs/security.md.
 */
const allowedTables = new Set(['alias', 'cargo-new', 'future-incompat-report', 'cache', 'install', 'patch', 'profile', 'resolver', 'term'])

const allowedKeys: Readonly<Record<string, ReadonlySet<string>>> = {
  build: new Set(['jobs', 'incremental', 'dep-info-basedir', 'pipelining', 'warnings']),
  http: new Set([
    'debug',
    'proxy',
    'timeout',
    'cainfo',
    'proxy-cainfo',
    'check-revoke',
    'ssl-version',
    'low-speed-limit',
    'multiplexing',
    'user-agent',
  ]),
  net: new Set(['retry', 'offline', 'ssh']),
  registry: new Set(['index', 'default', 'token']),
}

/** Keys of a `[registries.<name>]` and of a `[source.<name>]` table that name data only. */
const registryKeys = new Set(['index', 'token', 'protocol'])
const sourceKeys = new Set(['replace-with', 'directory', 'registry', 'local-registry', 'git', 'branch', 'tag', 'rev'])

/**
 * A rustc flag that loads code into rustc or chooses a program: any unstable `-Z` flag (`-Zcodegen-backend`,
 * `-Zllvm-plugins` load a library into the rustc that answers `--print cfg`, and rust-analyzer runs some of its
 * cargo queries with RUSTC_BOOTSTRAP=1), an `@file` of more arguments, `--sysroot`, `--target` (a specification
 * file names a linker), and the codegen options `linker` and `llvm-args`.
 */
function riskyFlag(flags: ReadonlyArray<string>): string | undefined {
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string
    if (flag.startsWith('-Z') || flag.startsWith('@') || flag.startsWith('--sysroot') || flag.startsWith('--target')) return flag
    const separate = flag === '-C' || flag === '--codegen'
    const codegen = separate
      ? flags[i + 1]
      : flag.startsWith('--codegen=')
        ? flag.slice('--codegen='.length)
        : flag.startsWith('-C')
          ? flag.slice(2)
          : undefined
    const option = codegen?.split('=')[0]?.trim()
    if (option === 'linker' || option === 'llvm-args' || option === 'codegen-backend') return separate ? `${flag} ${codegen}` : flag
  }
  return undefined
}

/** A `rustflags` / `rustdocflags` value: a string split on spaces, or an array of strings. */
function judgeFlags(value: unknown): string | undefined {
  if (typeof value === 'string') return riskyFlag(value.split(' ').filter((f) => f !== ''))
  if (Array.isArray(value) && value.every((f) => typeof f === 'string')) return riskyFlag(value as string[])
  return 'not a string or a list of strings'
}

/**
 * The keys of one parsed configuration that are refused, dotted as cargo names them (`target.<triple>.runner`,
 * `target.cfg(unix).linker`). `base`: the folder relative paths in it resolve against (the parent of `.cargo`);
 * `workspaceRoot`: where a target directory may point.
 */
export function refusedKeys(doc: Table, base: string, workspaceRoot: string): string[] {
  const refused: string[] = []
  const refuse = (key: string, why?: string) => refused.push(why === undefined ? key : `${key} (${why})`)
  for (const [top, value] of Object.entries(doc)) {
    if (top === 'include' || allowedTables.has(top)) continue
    if (top === 'env' || top === 'paths' || top === 'unstable' || top === 'credential-alias') {
      refuse(top)
      continue
    }
    if (!isTable(value)) {
      refuse(top, 'not known to codeseam')
      continue
    }
    if (top === 'target') {
      for (const [target, settings] of Object.entries(value)) {
        if (!isTable(settings)) {
          refuse(`target.${target}`, 'not known to codeseam')
          continue
        }
        for (const [key, setting] of Object.entries(settings)) {
          const name = `target.${target}.${key}`
          if (key === 'rustflags' || key === 'rustdocflags') {
            const risky = judgeFlags(setting)
            if (risky !== undefined) refuse(name, risky)
          } else if (key === 'linker' || key === 'runner') refuse(name)
          // `[target.<triple>.<links>]`: a build script's output given instead of running it (build scripts are off).
          else if (!target.startsWith('cfg(') && isTable(setting)) continue
          else refuse(name, 'not known to codeseam')
        }
      }
      continue
    }
    if (top === 'registries' || top === 'source') {
      const known = top === 'registries' ? registryKeys : sourceKeys
      for (const [name, settings] of Object.entries(value)) {
        if (!isTable(settings)) {
          refuse(`${top}.${name}`, 'not known to codeseam')
          continue
        }
        for (const key of Object.keys(settings)) {
          if (key === 'credential-provider') refuse(`${top}.${name}.${key}`)
          else if (!known.has(key)) refuse(`${top}.${name}.${key}`, 'not known to codeseam')
        }
      }
      continue
    }
    for (const [key, setting] of Object.entries(value)) {
      const name = `${top}.${key}`
      if (programs.has(name)) refuse(name)
      else if (top === 'build' && (key === 'rustflags' || key === 'rustdocflags')) {
        const risky = judgeFlags(setting)
        if (risky !== undefined) refuse(name, risky)
      } else if (top === 'build' && key === 'target') {
        // A triple is data; a path is a target specification rustc would read (one from the workspace can set its linker).
        const targets = typeof setting === 'string' ? [setting] : Array.isArray(setting) ? setting : [undefined]
        if (!targets.every((t) => typeof t === 'string' && /^[A-Za-z0-9_.-]+$/.test(t) && !t.endsWith('.json'))) {
          refuse(name, 'a target specification file')
        }
      } else if (top === 'build' && (key === 'target-dir' || key === 'build-dir')) {
        // cargo metadata writes its rustc cache (`.rustc_info.json`) there: inside the workspace only.
        const dir = typeof setting === 'string' ? setting.replace(/^\{workspace-root\}/, workspaceRoot) : undefined
        if (dir === undefined || dir.includes('{') || !isWithin(workspaceRoot, nodePath.resolve(base, dir))) {
          refuse(name, 'outside the workspace')
        }
      } else if (allowedKeys[top]?.has(key) !== true) refuse(name, 'not known to codeseam')
    }
  }
  return refused
}

/** The files an `include` value names: a path, a list of paths, or a list of `{ path, optional }` tables. */
function includesOf(value: unknown): string[] | undefined {
  if (value === undefined) return []
  const items = Array.isArray(value) ? value : [value]
  const paths: string[] = []
  for (const item of items) {
    if (typeof item === 'string') paths.push(item)
    else if (isTable(item) && typeof item['path'] === 'string') paths.push(item['path'])
    else return undefined
  }
  return paths
}

/**
 * Judges one configuration file and, recursively, the files it includes (each once). A file that does not exist
 * is nothing to judge (cargo fails to load a missing include; nothing runs); one that is not TOML is refused.
 */
export function judgeCargoConfig(file: string, workspaceRoot: string, seen = new Set<string>()): CargoConfigVerdict {
  const files: string[] = []
  const refused: string[] = []
  const considered: string[] = []
  const visit = (path: string) => {
    if (seen.has(path)) return
    seen.add(path)
    considered.push(path)
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      files.push(path)
      refused.push(`${path}: unreadable (${(error as Error).message})`)
      return
    }
    files.push(path)
    let doc: Table
    try {
      doc = parse(text) as Table
    } catch {
      refused.push(`${path}: not valid TOML`)
      return
    }
    // Relative paths in a configuration resolve against the folder holding its `.cargo` folder.
    const folder = nodePath.dirname(path)
    const base = nodePath.basename(folder) === '.cargo' ? nodePath.dirname(folder) : folder
    for (const key of refusedKeys(doc, base, workspaceRoot)) refused.push(`${path}: ${key}`)
    const includes = includesOf(doc['include'])
    if (includes === undefined) {
      refused.push(`${path}: include (not known to codeseam)`)
      return
    }
    for (const include of includes) visit(nodePath.resolve(folder, include))
  }
  visit(file)
  return { files, refused, considered }
}
