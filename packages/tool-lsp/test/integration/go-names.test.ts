import { builtinProfiles } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeHover } from '../../src/hover.js'
import { codeImpact } from '../../src/impact.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeSymbols } from '../../src/symbols.js'
import { goNamesProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

// One name per symbol across tools (issue 44), on a real gopls: the outline names a method as targeting takes it
// (`Value`, in `DemoStruct`), and the names implementations, references and dependents are listed under are the
// same ones, never gopls' `(*DemoStruct).Value` label.
const gopls = (await builtinProfiles()).find((p) => p.id === 'gopls')
const skipReason = gopls === undefined ? 'there is no built-in gopls profile' : gopls.unavailable
if (skipReason !== undefined) console.log(`SKIPPED the gopls naming tests: ${skipReason}`)

describe.skipIf(skipReason !== undefined && process.env['CI'] !== 'true')('Go names across tools, from gopls', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost
  const file = 'names.go'

  beforeAll(async () => {
    project = await goNamesProject()
    real = await startRealHost(project.root)
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    await project?.remove()
  })

  it('code_symbols: a method is named without its receiver, and its receiver type is its container', async () => {
    const outcome = await real.call(codeSymbols, { path: file })
    const outline = structured(outcome).outline as Array<Record<string, unknown>>
    const method = (needle: string, name: string, container: string) => ({
      name,
      kind: 'method',
      container,
      line: project.lineOf(file, needle),
      column: project.columnOf(file, needle) + needle.indexOf(name),
    })
    expect(outline).toEqual(
      expect.arrayContaining([
        expect.objectContaining(method('func (d *DemoStruct) Value()', 'Value', 'DemoStruct')),
        expect.objectContaining(method('func (d DemoStruct) Label()', 'Label', 'DemoStruct')),
        expect.objectContaining(method('func (ConsoleGreeter) FormatGreeting', 'FormatGreeting', 'ConsoleGreeter')),
      ]),
    )
    expect(outcome.text).toMatch(/^method Value {2}\d+:\d+ .*\(in DemoStruct\)$/m)
    expect(outcome.text).not.toContain('(*DemoStruct)')
    // The kind filter keeps the container.
    const methods = structured(await real.call(codeSymbols, { path: file, kind: 'method' })).outline as Array<Record<string, unknown>>
    expect(methods.map((m) => `${m['container'] ?? ''}.${m['name']}`)).toEqual(
      expect.arrayContaining(['DemoStruct.Value', 'DemoStruct.Label', 'ConsoleGreeter.FormatGreeting', 'Greeter.FormatGreeting']),
    )
  })

  it('code_navigate: the implementation is named as targeting takes it, and that name targets it', async () => {
    const result = structured(
      await real.call(codeNavigate, { target: { path: file, symbol: 'Greeter.FormatGreeting' }, kind: 'implementation' }),
    )
    const location = result.files[0].locations[0]
    expect(location).toMatchObject({
      symbol: 'ConsoleGreeter.FormatGreeting',
      kind: 'method',
      line: project.lineOf(file, 'func (ConsoleGreeter) FormatGreeting'),
    })
    const again = structured(await real.call(codeHover, { target: { path: file, symbol: location.symbol } }))
    expect(again.target).toMatchObject({ symbol: 'ConsoleGreeter.FormatGreeting', line: location.line })
  })

  it('code_navigate references and code_impact name the caller as targeting takes it', async () => {
    const refs = structured(await real.call(codeNavigate, { target: { path: file, symbol: 'DemoStruct.Value' }, kind: 'references' }))
    const use = refs.files[0].locations.find((l: any) => l.line === project.lineOf(file, 'fmt.Sprint(d.Value())'))
    expect(use).toMatchObject({ container: 'DemoStruct.Label' })
    const impact = structured(await real.call(codeImpact, { target: { path: file, symbol: 'DemoStruct.Value' } }))
    expect(impact.target).toMatchObject({ symbol: 'DemoStruct.Value' })
    const names = impact.dependents.map((d: any) => d.symbol?.id)
    expect(names).toContain(`DemoStruct.Label@${file}:${project.lineOf(file, 'func (d DemoStruct) Label()')}`)
    expect(JSON.stringify(impact)).not.toContain('(DemoStruct)')
  })

  it('the old gopls label still targets the method', async () => {
    const hover = structured(await real.call(codeHover, { target: { path: file, symbol: '(*DemoStruct).Value' } }))
    expect(hover.target).toMatchObject({ symbol: 'DemoStruct.Value', line: project.lineOf(file, 'func (d *DemoStruct) Value()') })
  })
})
