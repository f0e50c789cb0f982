// What an untrusted Rust root needs besides rust-analyzer's settings: the machine's own toolchain, pinned by
// absolute path (asked outside the workspace), and the workspace files that no environment variable or setting
// can neutralise, which make codeseam refuse the root.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { lookUp } from '../../policy/executables.js'
import { walkTree } from '../tree-walk.js'

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

/**
 * Files in the tree that rust-analyzer or the cargo it runs obey over anything the client says:
 * `.cargo/config(.toml)` (`[env]` with `force = true` reaches the rustc that `cargo metadata` runs, whatever the
 * environment; `[build] rustflags`, linkers, source replacement) and `rust-analyzer.toml` (its `checkOnSave`,
 * `rustfmt.overrideCommand` win over the client's settings). `undefined` when the walk hit the limit.
 */
export function workspaceRustConfigs(root: string): string[] | undefined {
  const found: string[] = []
  const complete = walkTree(root, (entry, path) => {
    // `.cargo` is checked even when it is a link: cargo follows it.
    if (entry.name === '.cargo') {
      for (const name of ['config', 'config.toml']) if (existsSync(nodePath.join(path, name))) found.push(nodePath.join(path, name))
    } else if (!entry.isDirectory() && (entry.name === 'rust-analyzer.toml' || entry.name === '.rust-analyzer.toml')) found.push(path)
  })
  return complete ? found.sort() : undefined
}
