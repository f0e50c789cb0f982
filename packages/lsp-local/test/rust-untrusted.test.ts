import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, LspError } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { planSpawn } from '../src/policy/trust.js'
import { LeakCheck, positionOf } from './helpers.js'

// rust-analyzer on a root codeseam has not been told to trust: the workspace's build script never runs, its
// rust-toolchain.toml never chooses the toolchain, and the files no setting can neutralise (.cargo/config.toml,
// rust-analyzer.toml) make codeseam refuse the root, naming them. Marker-writing traps, real rust-analyzer.
const profiles = await builtinProfiles()
const ra = profiles.find((p) => p.id === 'rust-analyzer')
const why = ra?.unavailable
const folders: string[] = []
const leaks = new LeakCheck()

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  expect(await leaks.survivors()).toEqual([])
})

/** A crate whose build script writes `build-ran.marker` into the crate, plus any extra files. */
function crate(extra: Readonly<Record<string, string>> = {}): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-rust-trap-')))
  folders.push(root)
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "trap"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n\n[dependencies]\n',
    'build.rs':
      'fn main() {\n    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();\n    std::fs::write(format!("{dir}/build-ran.marker"), "build script ran").unwrap();\n}\n',
    'src/lib.rs':
      'pub fn total_area(sides: &[f64]) -> f64 {\n    sides.iter().sum()\n}\n\npub fn twice(x: f64) -> f64 {\n    total_area(&[x, x])\n}\n',
    ...extra,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, file)), { recursive: true })
    writeFileSync(nodePath.join(root, file), text)
  }
  return root
}

const env = { ...(process.env as Record<string, string>) }

describe('the untrusted rust-analyzer plan', () => {
  test('a .cargo/config.toml or rust-analyzer.toml anywhere in the tree refuses the root, naming the file', () => {
    expect(ra).toBeDefined()
    for (const file of ['.cargo/config.toml', 'nested/crate/.cargo/config', 'tools/rust-analyzer.toml']) {
      const root = crate({ [file]: '' })
      let thrown: unknown
      try {
        planSpawn({ ...ra!, command: '/usr/bin/true' }, { root, trust: 'untrusted', env })
      } catch (error) {
        thrown = error
      }
      expect(thrown, file).toBeInstanceOf(LspError)
      expect((thrown as LspError).code).toBe('UNTRUSTED')
      expect((thrown as LspError).message).toContain(file)
      // Trusted, the same root is planned as configured.
      expect(planSpawn({ ...ra!, command: '/usr/bin/true' }, { root, trust: 'trusted', env }).hardening).toEqual([])
    }
    // Build output and dependencies are not the workspace's configuration.
    const root = crate({ 'target/debug/.cargo/config.toml': '', 'node_modules/x/rust-analyzer.toml': '' })
    expect(() => planSpawn({ ...ra!, command: '/usr/bin/true' }, { root, trust: 'untrusted', env })).not.toThrow()
  })

  test("the toolchain is the machine's own, by absolute path, and no rustc wrapper runs", () => {
    const root = crate({ 'rust-toolchain.toml': '[toolchain]\nchannel = "1.70.0"\n' })
    const plan = planSpawn(
      { ...ra!, command: '/usr/bin/true' },
      { root, trust: 'untrusted', env: { ...env, RUSTC_WRAPPER: '/x/wrap', RUSTFLAGS: '-Cx' } },
    )
    expect(plan.env['RUSTC_WRAPPER']).toBe('')
    expect(plan.env['RUSTC_WORKSPACE_WRAPPER']).toBe('')
    expect(plan.env['RUSTFLAGS']).toBeUndefined()
    expect(plan.env['RUSTUP_AUTO_INSTALL']).toBe('0')
    expect(plan.initializationOptions).toMatchObject({ procMacro: { enable: false, attributes: { enable: false } } })
    const sysroot = (plan.initializationOptions as { cargo?: { sysroot?: string } }).cargo?.sysroot
    if (sysroot === undefined) {
      // No rustc on this machine: only the channel is pinned.
      expect(process.env['CI'], 'under CI=true rustc must be installed').not.toBe('true')
      expect(plan.env['RUSTUP_TOOLCHAIN']).toBeDefined()
      return
    }
    expect(nodePath.isAbsolute(sysroot)).toBe(true)
    expect(sysroot).not.toContain(root)
    expect(plan.env['RUSTUP_TOOLCHAIN']).toBe(sysroot)
    expect(plan.env['RUSTC']).toBe(nodePath.join(sysroot, 'bin', 'rustc'))
  })
})

if (why !== undefined && process.env['CI'] !== 'true') {
  console.log(`SKIPPED the rust-analyzer trap tests: ${why}`)
  test.skip(`rust-analyzer traps: ${why}`, () => {})
} else {
  describe('rust-analyzer on a crate with a build script and a foreign rust-toolchain.toml', () => {
    const ask = async (root: string, trust: 'trusted' | 'untrusted') => {
      const host = await createLocalHost()
      try {
        const lsp = createLsp()
        await host.attach(lsp, [{ root, trust }])
        await leaks.record()
        const path = nodePath.join(root, 'src/lib.rs')
        return await lsp.query({ operation: 'references', root, path, position: positionOf(root, 'src/lib.rs', 'total_area') })
      } finally {
        await host.dispose()
      }
    }

    test('untrusted: answered on the pinned toolchain, and the build script never ran', async () => {
      expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
      const root = crate({ 'rust-toolchain.toml': '[toolchain]\nchannel = "1.70.0"\n' })
      const result = await ask(root, 'untrusted')
      expect(result.locations.map((l) => l.range.start.line).sort()).toEqual([0, 5])
      expect(existsSync(nodePath.join(root, 'build-ran.marker'))).toBe(false)
    }, 180_000)

    test('trusted: the build script runs (the trap works), and a toolchain that is not installed is a typed error', async () => {
      const root = crate()
      const result = await ask(root, 'trusted')
      expect(result.locations.map((l) => l.range.start.line).sort()).toEqual([0, 5])
      expect(existsSync(nodePath.join(root, 'build-ran.marker'))).toBe(true)

      // The workspace's own channel, not installed (rust-analyzer never installs it): its status says
      // "Failed to load workspaces", and codeseam says so instead of answering nothing.
      const pinned = crate({ 'rust-toolchain.toml': '[toolchain]\nchannel = "1.70.0"\n' })
      const failed = await ask(pinned, 'trusted').then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(failed).toBeInstanceOf(LspError)
      expect((failed as LspError).code).toBe('UNAVAILABLE')
      expect((failed as LspError).message).toMatch(/reports an error/)
    }, 240_000)

    test('a derive macro of the workspace runs only for a trusted root', async () => {
      // A workspace with a proc-macro crate whose derive writes a marker when it expands, and a library using it.
      const files = {
        'Cargo.toml': '[workspace]\nmembers = ["trapmacro", "app"]\nresolver = "2"\n',
        'trapmacro/Cargo.toml': '[package]\nname = "trapmacro"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n',
        'trapmacro/src/lib.rs':
          'use proc_macro::TokenStream;\n\n#[proc_macro_derive(Trap)]\npub fn trap(_input: TokenStream) -> TokenStream {\n    let _ = std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/../macro-ran.marker"), "derive ran");\n    TokenStream::new()\n}\n',
        'app/Cargo.toml':
          '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntrapmacro = { path = "../trapmacro" }\n',
        'app/src/lib.rs':
          'use trapmacro::Trap;\n\n#[derive(Trap)]\npub struct Shape;\n\npub fn total_area() -> u32 {\n    1\n}\n\npub fn twice() -> u32 {\n    total_area() * 2\n}\n',
      }
      const run = async (trust: 'trusted' | 'untrusted') => {
        const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-rust-macro-${trust}-`)))
        folders.push(root)
        for (const [file, text] of Object.entries(files)) {
          mkdirSync(nodePath.dirname(nodePath.join(root, file)), { recursive: true })
          writeFileSync(nodePath.join(root, file), text)
        }
        const host = await createLocalHost()
        try {
          const lsp = createLsp()
          await host.attach(lsp, [{ root, trust }])
          await leaks.record()
          const path = nodePath.join(root, 'app/src/lib.rs')
          const result = await lsp.query({
            operation: 'references',
            root,
            path,
            position: positionOf(root, 'app/src/lib.rs', 'total_area'),
          })
          expect(result.locations).toHaveLength(2)
          // Diagnostics ask for the derive's expansion (rust-analyzer expands macros of the file it checks).
          await lsp.query({ operation: 'diagnostics', root, path })
        } finally {
          await host.dispose()
        }
        return existsSync(nodePath.join(root, 'macro-ran.marker'))
      }
      expect(await run('untrusted')).toBe(false)
      // The trap works: trusted, rust-analyzer builds the macro and its proc-macro server runs it.
      expect(await run('trusted')).toBe(true)
    }, 300_000)

    test('a .rs file of no crate: UNAVAILABLE quoting rust-analyzer, never an empty answer', async () => {
      const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-rust-loose-')))
      folders.push(root)
      mkdirSync(nodePath.join(root, 'src'))
      writeFileSync(
        nodePath.join(root, 'src/lib.rs'),
        'fn total_area() -> u32 {\n    1\n}\n\nfn twice() -> u32 {\n    total_area() * 2\n}\n',
      )
      const host = await createLocalHost()
      try {
        const lsp = createLsp()
        await host.attach(lsp, [{ root, trust: 'untrusted' }])
        await leaks.record()
        const path = nodePath.join(root, 'src/lib.rs')
        const position = positionOf(root, 'src/lib.rs', 'total_area')
        const failed = await lsp.query({ operation: 'references', root, path, position }).then(
          (result) => result,
          (error: unknown) => error,
        )
        expect(failed).toBeInstanceOf(LspError)
        expect((failed as LspError).code).toBe('UNAVAILABLE')
        expect((failed as LspError).message).toMatch(/Failed to discover workspace/)
        // The status says it too, for a model that calls code_status after the failure.
        expect(host.status().find((s) => s.server === 'rust-analyzer')?.reason).toMatch(
          /the server reports an? (error|warning): Failed to discover workspace/,
        )
      } finally {
        await host.dispose()
      }
    }, 180_000)
  })
}
