import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, resolveTarget, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { goplsAllowedCommands } from '../src/languages/gopls/record.js'
import { planSpawn } from '../src/policy/trust.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'

// Go and Rust through the seam as a harness uses them: targets by the names people write (gopls names methods
// `(*Circle).Area`; rust-analyzer nests them under `impl Shape for Circle`), definitions that land in the
// language's own library named (never read), and the untrusted plans the records make. Real servers.
const profiles = await builtinProfiles()
const missing = (id: string) => profiles.find((p) => p.id === id)?.unavailable

for (const language of [
  {
    id: 'gopls',
    fixture: 'go-library',
    file: 'shapes.go',
    method: 'Circle.Area',
    call: 'c.Area()',
    library: 'fmt.Println',
    libraryName: 'Go standard library',
  },
  {
    id: 'rust-analyzer',
    fixture: 'rust-library',
    file: 'src/lib.rs',
    method: 'Circle.area',
    call: 'c.area() +',
    library: undefined,
    libraryName: undefined,
  },
] as const) {
  const why = missing(language.id)
  if (why !== undefined && process.env['CI'] !== 'true') {
    console.log(`SKIPPED the ${language.id} seam tests: ${why}`)
    test.skip(`${language.id}: ${why}`, () => {})
    continue
  }
  describe(`${language.id} through the seam`, () => {
    const copy = copyFixture(language.fixture)
    const root = copy.root
    const path = nodePath.join(root, language.file)
    const leaks = new LeakCheck()
    let host: LocalHost
    let lsp: LspService
    beforeAll(async () => {
      expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
      host = await createLocalHost()
      lsp = createLsp()
      await host.attach(lsp, [{ root, trust: 'trusted' }])
      await leaks.record()
    })
    afterAll(async () => {
      await host?.dispose()
      copy.remove()
      expect(await leaks.survivors()).toEqual([])
    })

    test(`"${language.method}" names the method, and its references include the call`, async () => {
      const target = await resolveTarget(lsp, { path, symbol: language.method })
      const result = await lsp.query({ operation: 'references', root, path, position: target.position })
      const call = positionOf(root, language.file, language.call)
      expect(result.locations.some((l) => l.path === path && l.range.start.line === call.line)).toBe(true)
    })

    if (language.library !== undefined) {
      test(`a definition in the ${language.libraryName} is named as a library location, not dropped`, async () => {
        const at = positionOf(root, language.file, language.library, { offset: language.library.indexOf('.') + 1 })
        const result = await lsp.query({ operation: 'definition', root, path, position: at })
        expect(result.locations).toEqual([])
        expect(result.meta.droppedOutsideWorkspace).toBeUndefined()
        expect(result.meta.libraryLocations?.[0]).toMatchObject({ library: language.libraryName })
        expect(result.meta.libraryLocations?.[0]?.path).toMatch(/[\\/]fmt[\\/]print\.go$/)
      })
    }
  })
}

describe('the untrusted plans of the Go and Rust records', () => {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'auto',
    RUSTC_WRAPPER: '/x/wrap',
    RUSTUP_TOOLCHAIN: 'stable',
  }
  test("gopls: the machine's toolchain, a read-only module graph and the module cache only, no VCS, no packages driver, no cgo", () => {
    const gopls = profiles.find((p) => p.id === 'gopls')
    expect(gopls).toBeDefined()
    const plan = planSpawn({ ...gopls!, command: '/usr/bin/true' }, { root: '/tmp/ws', trust: 'untrusted', env })
    expect(plan.env).toMatchObject({
      GOTOOLCHAIN: 'local',
      GOFLAGS: '-mod=readonly',
      GOPROXY: 'off',
      GOVCS: '*:off',
      GOPACKAGESDRIVER: 'off',
      CGO_ENABLED: '0',
    })
    expect((plan.settings['gopls'] as Record<string, unknown>)['buildFlags']).toEqual([])
    const trusted = planSpawn({ ...gopls!, command: '/usr/bin/true' }, { root: '/tmp/ws', trust: 'trusted', env })
    expect(trusted.env['GOFLAGS']).toBe('-mod=mod')
    // Every root: no vulnerability database, workspace symbols from the workspace; only edit and query commands run.
    expect((trusted.settings['gopls'] as Record<string, unknown>)['vulncheck']).toBe('Off')
    expect(goplsAllowedCommands).not.toContain('gopls.generate')
    expect(goplsAllowedCommands).not.toContain('gopls.tidy')
    expect(goplsAllowedCommands).toContain('gopls.apply_fix')
  })

  test('rust-analyzer: no build scripts, no proc macros, no cargo check, no rustc wrapper, the toolchain pinned', () => {
    const ra = profiles.find((p) => p.id === 'rust-analyzer')
    expect(ra).toBeDefined()
    const plan = planSpawn({ ...ra!, command: '/usr/bin/true' }, { root: '/tmp/ws', trust: 'untrusted', env })
    expect(plan.initializationOptions).toMatchObject({
      cargo: { buildScripts: { enable: false } },
      procMacro: { enable: false },
      checkOnSave: false,
    })
    // Empty, not absent: cargo then runs no wrapper, whatever a .cargo/config.toml outside the tree names.
    expect(plan.env['RUSTC_WRAPPER']).toBe('')
    expect(plan.env['RUSTUP_TOOLCHAIN']).toBeDefined()
  })
})

// Several Go modules in one root: with its own go.work, or without one (codeseam writes a go.work over them outside
// the workspace). The first, cold, workspace-wide question must cover every module.
for (const layout of [
  { fixture: 'go-work', lib: 'lib/greet.go', name: 'Greet', use: 'app/main.go', call: 'lib.Greet("app")' },
  { fixture: 'go-nested', lib: 'lib/words.go', name: 'Shout', use: 'app/main.go', call: 'lib.Shout("app")' },
] as const) {
  const why = missing('gopls')
  if (why !== undefined && process.env['CI'] !== 'true') continue
  test(`gopls, ${layout.fixture}: the first references of ${layout.name} reach the other module`, async () => {
    expect(why).toBeUndefined()
    const copy = copyFixture(layout.fixture)
    const host = await createLocalHost()
    try {
      const lsp = createLsp()
      await host.attach(lsp, [{ root: copy.root, trust: 'untrusted' }])
      const path = nodePath.join(copy.root, layout.lib)
      const target = await resolveTarget(lsp, { path, symbol: layout.name })
      const result = await lsp.query({ operation: 'references', root: copy.root, path, position: target.position })
      const call = positionOf(copy.root, layout.use, layout.call, { offset: 'lib.'.length })
      expect(
        result.locations.map((l) => `${nodePath.relative(copy.root, l.path)}:${l.range.start.line}:${l.range.start.character}`),
      ).toContain(`${layout.use}:${call.line}:${call.character}`)
    } finally {
      await host.dispose()
      copy.remove()
    }
  })
}

// A module whose dependency cannot be fetched (untrusted: GOPROXY=off; here it does not exist at all): the
// answers that need no dependency come, and the diagnostics name the import that cannot load — never a hang,
// never an empty "no references".
{
  const why = missing('gopls')
  if (why === undefined || process.env['CI'] === 'true') {
    test('gopls, a dependency that cannot be fetched: references answered, the broken import diagnosed', async () => {
      expect(why).toBeUndefined()
      const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-go-deps-')))
      writeFileSync(
        nodePath.join(root, 'go.mod'),
        'module example.com/deps\n\ngo 1.22\n\nrequire github.com/nonexistent-codeseam/x v1.0.0\n',
      )
      writeFileSync(
        nodePath.join(root, 'main.go'),
        'package main\n\nimport "github.com/nonexistent-codeseam/x"\n\nfunc helper() int { return x.Value }\n\nfunc main() { _ = helper() }\n',
      )
      const host = await createLocalHost()
      try {
        const lsp = createLsp()
        await host.attach(lsp, [{ root, trust: 'untrusted' }])
        const path = nodePath.join(root, 'main.go')
        const target = await resolveTarget(lsp, { path, symbol: 'helper' })
        const references = await lsp.query({ operation: 'references', root, path, position: target.position })
        const call = positionOf(root, 'main.go', 'helper()', { occurrence: 2 })
        expect(references.locations.map((l) => l.range.start.line)).toContain(call.line)
        const diagnostics = await lsp.query({ operation: 'diagnostics', root, path })
        const messages = diagnostics.files.flatMap((f) => f.diagnostics.map((d) => d.message))
        expect(messages.some((m) => m.includes('github.com/nonexistent-codeseam/x'))).toBe(true)
      } finally {
        await host.dispose()
        rmSync(root, { recursive: true, force: true })
      }
    })
  }
}

// One name per symbol (issue 44): gopls labels a method `(*DemoStruct).Value` in its outline; the seam's outline
// names it as people aim at it, `Value`, with its receiver type as its container, and a target by any of the
// spellings (the old gopls label included) lands on it.
{
  const why = missing('gopls')
  if (why !== undefined && process.env['CI'] !== 'true') {
    test.skip(`gopls outline names: ${why}`, () => {})
  } else {
    describe('gopls outline names are the names targeting takes', () => {
      const copy = copyFixture('go-names')
      const root = copy.root
      const file = 'names.go'
      const path = nodePath.join(root, file)
      let host: LocalHost
      let lsp: LspService
      beforeAll(async () => {
        expect(why).toBeUndefined()
        host = await createLocalHost()
        lsp = createLsp()
        await host.attach(lsp, [{ root, trust: 'trusted' }])
      })
      afterAll(async () => {
        await host?.dispose()
        copy.remove()
      })

      test('methods are named without their receiver, which is their container; an interface method stays its child', async () => {
        const outline = await lsp.query({ operation: 'documentSymbols', root, path })
        const top = outline.symbols.map((s) => ({
          name: s.name,
          kind: s.kind,
          ...(s.containerName === undefined ? {} : { containerName: s.containerName }),
          line: s.selectionRange.start.line,
        }))
        const method = (needle: string, name: string, containerName: string) => ({
          name,
          kind: 'method',
          containerName,
          line: positionOf(root, file, needle).line,
        })
        expect(top).toEqual(
          expect.arrayContaining([
            method('func (d *DemoStruct) Value()', 'Value', 'DemoStruct'),
            method('func (d DemoStruct) Label()', 'Label', 'DemoStruct'),
            method('func (ConsoleGreeter) FormatGreeting', 'FormatGreeting', 'ConsoleGreeter'),
          ]),
        )
        expect(top.some((s) => s.name.includes('('))).toBe(false)
        const greeter = outline.symbols.find((s) => s.name === 'Greeter')
        expect(greeter?.containerName).toBeUndefined()
        expect(greeter?.children.map((c) => [c.name, c.containerName])).toEqual([['FormatGreeting', undefined]])
      })

      test.each(['DemoStruct.Value', 'Value', '(*DemoStruct).Value', '(DemoStruct).Value'])(
        '"%s" targets the pointer-receiver method',
        async (symbol) => {
          const target = await resolveTarget(lsp, { path, symbol })
          expect(target.position).toEqual(positionOf(root, file, 'Value() int'))
          expect(target.symbol).toMatchObject({ name: 'Value', qualifiedName: 'DemoStruct.Value', container: 'DemoStruct' })
        },
      )

      test('"ConsoleGreeter.FormatGreeting" is the implementation; "Greeter.FormatGreeting" the interface method', async () => {
        const implementation = await resolveTarget(lsp, { path, symbol: 'ConsoleGreeter.FormatGreeting' })
        expect(implementation.position).toEqual(positionOf(root, file, 'FormatGreeting(name string) string {'))
        const declared = await resolveTarget(lsp, { path, symbol: 'Greeter.FormatGreeting' })
        expect(declared.position).toEqual(positionOf(root, file, 'FormatGreeting(name string) string\n'))
      })
    })
  }
}
