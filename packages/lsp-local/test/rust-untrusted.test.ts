import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, LspError } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { planSpawn } from '../src/policy/trust.js'
import { LeakCheck, positionOf } from './helpers.js'

// rust-analyzer on a root codeseam has not been told to trust: the workspace's build script never runs, its
// rust-toolchain.toml never chooses the toolchain, a cargo configuration (.cargo/config.toml in the tree, in the
// folders above it, and the files they include) that chooses a program or an environment, and any
// rust-analyzer.toml, make codeseam refuse the root, naming file and key; a configuration that only sets flags is
// served. Marker-writing traps, real rust-analyzer.
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

/** The host's target triple (the one cargo builds build scripts for); a common one when rustc is missing. */
const hostTriple = (() => {
  try {
    return /^host: (\S+)$/m.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8', cwd: '/' }))?.[1] ?? 'x86_64-unknown-linux-gnu'
  } catch {
    return 'x86_64-unknown-linux-gnu'
  }
})()

/** A shell script (in the crate, executable) that writes `<name>.marker` into the crate, then does `then`. */
function trap(root: string, name: string, then = ''): string {
  const path = nodePath.join(root, 'tools', `${name}.sh`)
  mkdirSync(nodePath.dirname(path), { recursive: true })
  writeFileSync(path, `#!/bin/sh\necho ran > '${root}/${name}.marker'\n${then}\n`)
  chmodSync(path, 0o755)
  return path
}

/** The markers the crate's traps left. */
const markers = (root: string) => readdirSync(root).filter((name) => name.endsWith('.marker'))

/**
 * Each cargo configuration key that chooses a program or an environment (or that codeseam does not know), as
 * `.cargo/config.toml` text given a marker-writing program; `key` is how the refusal names it.
 */
const refusedKeys: ReadonlyArray<{ key: string; toml: (program: string) => string }> = [
  { key: 'build.rustc', toml: (p) => `[build]\nrustc = "${p}"\n` },
  { key: 'build.rustc-wrapper', toml: (p) => `[build]\nrustc-wrapper = "${p}"\n` },
  { key: 'build.rustc-workspace-wrapper', toml: (p) => `[build]\nrustc-workspace-wrapper = "${p}"\n` },
  { key: 'build.rustdoc', toml: (p) => `[build]\nrustdoc = "${p}"\n` },
  { key: 'env', toml: (p) => `[env]\nRUSTC_WRAPPER = { value = "${p}", force = true }\n` },
  { key: `target.${hostTriple}.runner`, toml: (p) => `[target.${hostTriple}]\nrunner = "${p}"\n` },
  { key: `target.${hostTriple}.linker`, toml: (p) => `[target.${hostTriple}]\nlinker = "${p}"\n` },
  { key: 'target.cfg(unix).runner', toml: (p) => `[target.'cfg(unix)']\nrunner = ["${p}"]\n` },
  { key: 'target.cfg(unix).linker', toml: (p) => `[target.'cfg(unix)']\nlinker = "${p}"\n` },
  { key: 'paths', toml: (p) => `paths = ["${nodePath.dirname(p)}"]\n` },
  { key: 'unstable', toml: () => `[unstable]\nbuild-std = ["core"]\n` },
  { key: 'credential-alias', toml: (p) => `[credential-alias]\nmine = ["${p}"]\n` },
  { key: 'registry.credential-provider', toml: (p) => `[registry]\ncredential-provider = ["${p}"]\n` },
  { key: 'registry.global-credential-providers', toml: (p) => `[registry]\nglobal-credential-providers = ["${p}"]\n` },
  {
    key: 'registries.mine.credential-provider',
    toml: (p) => `[registries.mine]\nindex = "sparse+https://example.invalid/"\ncredential-provider = "${p}"\n`,
  },
  { key: 'net.git-fetch-with-cli', toml: () => `[net]\ngit-fetch-with-cli = true\n` },
  { key: 'doc.browser', toml: (p) => `[doc]\nbrowser = "${p}"\n` },
  // Flags that load code into rustc (an unstable codegen backend) or choose a program, even when only flags are set.
  { key: 'build.rustflags', toml: (p) => `[build]\nrustflags = ["-Zcodegen-backend=${p}"]\n` },
  { key: `target.${hostTriple}.rustflags`, toml: (p) => `[target.${hostTriple}]\nrustflags = ["-C", "linker=${p}"]\n` },
  { key: 'build.rustdocflags', toml: (p) => `[build]\nrustdocflags = "@${nodePath.dirname(p)}/more-arguments"\n` },
  { key: 'build.target', toml: (p) => `[build]\ntarget = "${nodePath.dirname(p)}/custom.json"\n` },
  { key: 'build.target-dir', toml: () => `[build]\ntarget-dir = "/var/tmp/codeseam-elsewhere"\n` },
  { key: 'mystery', toml: () => `[mystery]\nkey = 1\n` },
  { key: 'build.mystery', toml: () => `[build]\nmystery = true\n` },
]

/** A flags-only configuration (and aliases, which run only cargo's own subcommands): served untrusted. */
const flagsOnly = [
  '[alias]',
  'xtask = "run --package xtask --"',
  '',
  '[build]',
  'jobs = 2',
  '',
  '[target.x86_64-pc-windows-msvc]',
  'rustflags = ["-C", "target-feature=+crt-static"]',
  '',
  `[target.'cfg(target_env = "musl")']`,
  'rustflags = ["-C", "target-feature=+crt-static"]',
  '',
].join('\n')

/** The UNTRUSTED error planning the root throws, or undefined. */
function planRefusal(root: string): LspError | undefined {
  try {
    planSpawn({ ...ra!, command: '/usr/bin/true' }, { root, trust: 'untrusted', env })
    return undefined
  } catch (error) {
    if (error instanceof LspError) return error
    throw error
  }
}

describe('the untrusted rust-analyzer plan', () => {
  test('a .cargo/config.toml that names a program, or a rust-analyzer.toml, anywhere in the tree refuses the root, naming the file', () => {
    expect(ra).toBeDefined()
    for (const file of ['.cargo/config.toml', 'nested/crate/.cargo/config', 'tools/rust-analyzer.toml']) {
      const root = crate({ [file]: file.endsWith('rust-analyzer.toml') ? '' : '[build]\nrustc = "/x/rustc"\n' })
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

  test('each cargo key that chooses a program or an environment (or is unknown) refuses the root, naming file and key', () => {
    for (const { key, toml } of refusedKeys) {
      const root = crate()
      mkdirSync(nodePath.join(root, '.cargo'))
      writeFileSync(nodePath.join(root, '.cargo/config.toml'), toml(trap(root, 'program')))
      const refused = planRefusal(root)
      expect(refused?.code, key).toBe('UNTRUSTED')
      expect(refused?.message, key).toContain(`.cargo/config.toml: ${key}`)
    }
    // Not TOML: what cargo would make of it is not judged.
    const root = crate({ '.cargo/config.toml': '[build\nrustc = ' })
    expect(planRefusal(root)?.message).toMatch(/\.cargo\/config\.toml: not valid TOML/)
  })

  test('a flags-only configuration is planned untrusted, saying what it read', () => {
    const root = crate({ '.cargo/config.toml': flagsOnly, 'nested/.cargo/config': '[term]\nverbose = true\n' })
    const plan = planSpawn({ ...ra!, command: '/usr/bin/true' }, { root, trust: 'untrusted', env })
    expect(plan.hardening.join('\n')).toMatch(/cargo configuration judged: .*\.cargo\/config\.toml/)
  })

  test('an included file is judged as the including one, relative to it', () => {
    for (const include of ['include = "more.toml"', 'include = ["more.toml"]', 'include = [{ path = "more.toml" }]']) {
      const root = crate({ '.cargo/config.toml': `${include}\n\n[build]\njobs = 1\n` })
      writeFileSync(nodePath.join(root, '.cargo/more.toml'), `[build]\nrustc-wrapper = "${trap(root, 'wrap')}"\n`)
      const refused = planRefusal(root)
      expect(refused?.code, include).toBe('UNTRUSTED')
      expect(refused?.message, include).toContain('.cargo/more.toml: build.rustc-wrapper')
    }
    // Included and allowed: served.
    const root = crate({ '.cargo/config.toml': 'include = ["../flags.toml"]\n', 'flags.toml': flagsOnly })
    expect(planRefusal(root)).toBeUndefined()
  })

  test('a configuration in a folder above the root is considered (cargo reads every ancestor)', () => {
    const parent = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-rust-parent-')))
    folders.push(parent)
    mkdirSync(nodePath.join(parent, '.cargo'))
    const root = crate()
    const inner = nodePath.join(parent, 'inner')
    execFileSync('cp', ['-r', root, inner])
    writeFileSync(nodePath.join(parent, '.cargo/config.toml'), `[target.${hostTriple}]\nrunner = "/bin/sh"\n`)
    const refused = planRefusal(inner)
    expect(refused?.code).toBe('UNTRUSTED')
    expect(refused?.message).toContain(`${nodePath.join(parent, '.cargo/config.toml')}: target.${hostTriple}.runner`)
    // Flags only above the root: served.
    writeFileSync(nodePath.join(parent, '.cargo/config.toml'), flagsOnly)
    expect(planRefusal(inner)).toBeUndefined()
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

    test.each(refusedKeys)(
      'refused cargo key $key: UNTRUSTED naming it, and its program never ran',
      async ({ key, toml }) => {
        const root = crate()
        mkdirSync(nodePath.join(root, '.cargo'))
        writeFileSync(nodePath.join(root, '.cargo/config.toml'), toml(trap(root, 'program', 'exec "$@"')))
        const failed = await ask(root, 'untrusted').then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failed).toBeInstanceOf(LspError)
        expect((failed as LspError).code).toBe('UNTRUSTED')
        expect((failed as LspError).message).toContain(`.cargo/config.toml: ${key}`)
        expect(markers(root)).toEqual([])
      },
      60_000,
    )

    test('trusted: the programs a cargo configuration names run (the traps work)', async () => {
      const root = crate()
      const rustc = execFileSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8', cwd: '/' }).trim() + '/bin/rustc'
      const config = [
        '[build]',
        `rustc = "${trap(root, 'rustc', `exec '${rustc}' "$@"`)}"`,
        `rustc-wrapper = "${trap(root, 'wrapper', 'exec "$@"')}"`,
        `rustc-workspace-wrapper = "${trap(root, 'workspace-wrapper', 'exec "$@"')}"`,
        '',
        `[target.${hostTriple}]`,
        `linker = "${trap(root, 'linker', 'exec cc "$@"')}"`,
        '',
      ].join('\n')
      mkdirSync(nodePath.join(root, '.cargo'))
      writeFileSync(nodePath.join(root, '.cargo/config.toml'), config)
      const result = await ask(root, 'trusted')
      expect(result.locations.map((l) => l.range.start.line).sort()).toEqual([0, 5])
      expect(markers(root).sort()).toEqual([
        'build-ran.marker',
        'linker.marker',
        'rustc.marker',
        'workspace-wrapper.marker',
        'wrapper.marker',
      ])
      // Untrusted, the same root is refused and none of them runs.
      const again = crate({ '.cargo/config.toml': config.replaceAll(root, '/nonexistent') })
      await expect(ask(again, 'untrusted')).rejects.toMatchObject({ code: 'UNTRUSTED' })
    }, 240_000)

    test('untrusted: a flags-only configuration is served with correct answers; changed to name a program while the server runs, refused', async () => {
      const root = crate({ '.cargo/config.toml': `include = ["flags.toml"]\n\n${flagsOnly}`, '.cargo/flags.toml': flagsOnly })
      const host = await createLocalHost()
      try {
        const lsp = createLsp()
        await host.attach(lsp, [{ root, trust: 'untrusted' }])
        await leaks.record()
        const path = nodePath.join(root, 'src/lib.rs')
        const position = positionOf(root, 'src/lib.rs', 'total_area')
        const result = await lsp.query({ operation: 'references', root, path, position })
        expect(result.locations.map((l) => l.range.start.line).sort()).toEqual([0, 5])
        const definition = await lsp.query({
          operation: 'definition',
          root,
          path,
          position: positionOf(root, 'src/lib.rs', 'total_area(&'),
        })
        expect(definition.locations.map((l) => l.range.start.line)).toEqual([0])
        expect(markers(root)).toEqual([])
        // The included file now names a runner: the next question re-judges the root and is refused.
        writeFileSync(
          nodePath.join(root, '.cargo/flags.toml'),
          `${flagsOnly}\n[target.${hostTriple}]\nrunner = "${trap(root, 'runner')}"\n`,
        )
        const failed = await lsp.query({ operation: 'references', root, path, position }).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failed).toBeInstanceOf(LspError)
        expect((failed as LspError).code).toBe('UNTRUSTED')
        expect((failed as LspError).message).toContain(`.cargo/flags.toml: target.${hostTriple}.runner`)
        expect(markers(root)).toEqual([])
      } finally {
        await host.dispose()
      }
    }, 180_000)

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
