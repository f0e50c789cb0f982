// What an untrusted Rust root needs besides rust-analyzer's settings: the machine's own toolchain, pinned by
// absolute path (asked outside the workspace), and the workspace files that no environment variable or setting
// can neutralise, which make codeseam refuse the root.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'

import { lookUp } from '../../profile/executables.js'
import { isSkippedFolder, walkTree } from '../tree-walk.js'
import { judgeCargoConfig } from './cargo-config.js'

const sysroots = new Map<string, string | undefined>()

/**
 * The sysroot of the toolchain the user gets outside any workspace: `rustc --print sysroot` run in `/` (where no
 * rust-toolchain.toml applies) with the user's own RUSTUP_TOOLCHAIN, never installing one. Once per PATH and
 * choice; undefined when there is no rustc.
 */
export function userSysroot(path: string, env: Readonly<Record<string, string>>): string | undefined {
  const key = JSON.stringify([path, env['RUSTUP_TOOLCHAIN'], env['RUSTUP_HOME'], env['CARGO_HOME']])
  if (sysroots.has(key)) return sysroots.get(key)
  let sysroot: string | undefined
  const rustc = lookUp('rustc', path)
  if (rustc !== undefined) {
    try {
      const out = execFileSync(rustc, ['--print', 'sysroot'], {
        cwd: '/',
        env: { ...env, PATH: path, RUSTUP_AUTO_INSTALL: '0' },
        encoding: 'utf8',
        timeout: 15_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      const line = out.trim().split('\n')[0]
      if (line !== undefined && nodePath.isAbsolute(line) && existsSync(line)) sysroot = line
    } catch {
      sysroot = undefined
    }
  }
  sysroots.set(key, sysroot)
  return sysroot
}

export { configWalkLimit } from '../tree-walk.js'

/** What an untrusted root's Rust configuration files were judged to do (see {@link judgeRustConfigs}). */
export interface RustConfigJudgement {
  /** `rust-analyzer.toml` / `.rust-analyzer.toml` files in the tree: always refused (their settings win over codeseam's). */
  readonly analyzerConfigs: ReadonlyArray<string>
  /** Every cargo configuration file read: in the tree, in the folders above it, included by those. */
  readonly cargoFiles: ReadonlyArray<string>
  /** `<file>: <key>` for each key that chooses a program or an environment (or is not known). */
  readonly refused: ReadonlyArray<string>
  /** The paths whose change (stat) calls for judging again: every folder walked and every file considered. */
  readonly watched: ReadonlyArray<string>
}

/**
 * Files in the tree and above it that rust-analyzer or the cargo it runs obey over anything the client says,
 * judged: `.cargo/config(.toml)` in every folder of the tree (rust-analyzer runs cargo in each crate it finds, and
 * cargo reads the configuration of that folder and of every folder above it), in every folder above the root,
 * `$CARGO_HOME/config.toml` when it is inside the workspace (outside, it is the user's own, like the environment),
 * and the files their `include` names (cargo-config.ts); and `rust-analyzer.toml` (its `checkOnSave`,
 * `rustfmt.overrideCommand` win over the client's settings). `undefined` when the walk hit the limit.
 */
export function judgeRustConfigs(workspaceRoot: string, env: Readonly<Record<string, string>>): RustConfigJudgement | undefined {
  const analyzerConfigs: string[] = []
  const candidates: string[] = []
  const watched: string[] = [workspaceRoot]
  const complete = walkTree(workspaceRoot, (entry, path) => {
    // `.cargo` is checked even when it is a link: cargo follows it.
    if (entry.name === '.cargo') for (const name of ['config', 'config.toml']) candidates.push(nodePath.join(path, name))
    else if (!entry.isDirectory() && (entry.name === 'rust-analyzer.toml' || entry.name === '.rust-analyzer.toml'))
      analyzerConfigs.push(path)
    if (entry.isDirectory() && !isSkippedFolder(entry.name)) watched.push(path)
  })
  if (!complete) return undefined
  const home =
    env['CARGO_HOME'] !== undefined && env['CARGO_HOME'] !== '' ? env['CARGO_HOME'] : nodePath.join(env['HOME'] ?? homedir(), '.cargo')
  const userOwn = new Set(
    isWithin(workspaceRoot, nodePath.resolve(home)) ? [] : ['config', 'config.toml'].map((n) => nodePath.join(nodePath.resolve(home), n)),
  )
  for (let folder = nodePath.dirname(workspaceRoot); ; folder = nodePath.dirname(folder)) {
    for (const name of ['config', 'config.toml']) candidates.push(nodePath.join(folder, '.cargo', name))
    if (nodePath.dirname(folder) === folder) break
  }
  for (const name of ['config', 'config.toml']) candidates.push(nodePath.join(nodePath.resolve(home), name))
  const seen = new Set<string>(userOwn)
  const cargoFiles: string[] = []
  const refused: string[] = []
  for (const candidate of candidates) {
    watched.push(candidate)
    const verdict = judgeCargoConfig(candidate, workspaceRoot, seen)
    cargoFiles.push(...verdict.files)
    refused.push(...verdict.refused)
    watched.push(...verdict.considered)
  }
  return { analyzerConfigs: analyzerConfigs.sort(), cargoFiles, refused, watched: [...new Set(watched)] }
}
