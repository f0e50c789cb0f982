import { writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeCompletions } from '../../src/completions.js'
import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeHierarchy } from '../../src/hierarchy.js'
import { codeHover } from '../../src/hover.js'
import { codeInlayHints } from '../../src/inlay-hints.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeStatus } from '../../src/status.js'
import { codeSymbols } from '../../src/symbols.js'
import { pythonProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

describe('read tools on pyright', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost

  beforeAll(async () => {
    project = await pythonProject()
    real = await startRealHost(project.root)
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    await project?.remove()
  })

  it('code_symbols: outline with methods nested in classes', async () => {
    const result = structured(await real.call(codeSymbols, { path: 'app/animals.py' }))
    const dog = result.outline.find((n: any) => n.name === 'Dog')
    expect(dog).toMatchObject({
      kind: 'class',
      line: project.lineOf('app/animals.py', 'class Dog'),
      column: project.columnOf('app/animals.py', 'class Dog') + 'class '.length,
    })
    expect(dog.children.map((c: any) => c.name)).toEqual(['speak'])
    const search = structured(await real.call(codeSymbols, { query: 'greet', kind: 'function' }))
    expect(search.matches[0]).toMatchObject({ name: 'greet', path: 'app/animals.py' })
  })

  it('code_navigate: references across files, and the definition body', async () => {
    const refs = structured(await real.call(codeNavigate, { target: { path: 'app/animals.py', symbol: 'greet' }, kind: 'references' }))
    expect(refs.files.map((f: any) => [f.path, f.count])).toEqual([
      ['app/animals.py', 1],
      ['app/main.py', 2],
    ])
    const use = refs.files[1].locations.find((l: any) => l.line === project.lineOf('app/main.py', 'return greet'))
    expect(use).toMatchObject({ container: 'main', snippet: 'return greet(dog, 2)' })
    const line = project.lineOf('app/main.py', 'return greet')
    const definition = structured(
      await real.call(codeNavigate, { target: { path: 'app/main.py', line, matchText: 'greet' }, kind: 'definition', includeBody: true }),
    )
    expect(definition.bodies[0].text).toContain('return animal.speak() * times')
  })

  it('an ambiguous method name lists both classes', async () => {
    const outcome = await real.call(codeNavigate, { target: { path: 'app/animals.py', symbol: 'speak' }, kind: 'references' })
    expect(outcome.ok === false && outcome.error.code).toBe('AMBIGUOUS')
    expect(outcome.text).toMatch(/Animal\.speak[\s\S]*Dog\.speak/)
  })

  it('code_hover and signature help', async () => {
    const hover = structured(await real.call(codeHover, { target: { path: 'app/animals.py', symbol: 'greet' } }))
    expect(hover.signature).toMatch(/def greet\(\s*animal: Animal,\s*times: int\s*\) -> str/)
    expect(hover.documentation).toContain('Greets an animal a number of times.')
    const line = project.lineOf('app/main.py', 'return greet')
    const inCall = structured(await real.call(codeHover, { target: { path: 'app/main.py', line, matchText: '2)' } }))
    expect(inCall.call).toMatchObject({ activeParameterIndex: 1 })
    expect(inCall.call.label).toContain('«times: int»')
  })

  it('code_hierarchy: callers of greet; the type hierarchy derived (pyright has none), and saying so', async () => {
    const callers = structured(await real.call(codeHierarchy, { target: { path: 'app/animals.py', symbol: 'greet' }, kind: 'callers' }))
    expect(callers.direct).toEqual([expect.objectContaining({ name: 'main', path: 'app/main.py' })])
    const up = await real.call(codeHierarchy, { target: { path: 'app/animals.py', symbol: 'Dog' }, kind: 'supertypes' })
    expect(structured(up).direct).toEqual([
      expect.objectContaining({ name: 'Animal', path: 'app/animals.py', line: project.lineOf('app/animals.py', 'class Animal') }),
    ])
    expect(up.ok && up.text).toContain('derived by codeseam')
    const down = structured(await real.call(codeHierarchy, { target: { path: 'app/animals.py', symbol: 'Animal' }, kind: 'subtypes' }))
    expect(down.direct).toEqual([expect.objectContaining({ name: 'Dog', line: project.lineOf('app/animals.py', 'class Dog') })])
  })

  it('code_hierarchy supertypes: a base with no declaration in the workspace is listed by name and counted', async () => {
    const outcome = await real.call(codeHierarchy, { target: { path: 'app/boxes.py', symbol: 'Crate' }, kind: 'supertypes' })
    const result = structured(outcome)
    expect(result.direct).toEqual([])
    expect(result.unresolved).toEqual(['Generic'])
    expect(outcome.summary).toBe('0 supertypes · 1 unresolved by name')
    expect(outcome.text).toContain('Generic  (declared base with no declaration in the workspace)')
  })

  it('code_navigate implementation: derived for pyright — the overriding method in the subclass', async () => {
    const line = project.lineOf('app/animals.py', 'def speak')
    const result = structured(
      await real.call(codeNavigate, { target: { path: 'app/animals.py', line, matchText: 'speak' }, kind: 'implementation' }),
    )
    const found = result.files.flatMap((f: any) => f.locations.map((l: any) => `${f.path}:${l.line}`))
    expect(found).toEqual([`app/animals.py:${project.lineOf('app/animals.py', 'def speak', 1)}`])
    expect(result.notice).toMatch(/derived by codeseam/)
  })

  it('code_diagnostics: the type error pyright pushes', async () => {
    const outcome = await real.call(codeDiagnostics, { path: 'app/broken.py' })
    const result = structured(outcome)
    expect(result.counts.error).toBe(1)
    expect(result.files[0].diagnostics[0]).toMatchObject({
      severity: 'error',
      line: project.lineOf('app/broken.py', 'count: int'),
      source: 'Pyright',
    })
    expect(result.files[0].diagnostics[0].message).toMatch(/"Literal\['three'\]" is not assignable to "int"|not assignable/)
  })

  it('code_completions: members of a Dog', async () => {
    const line = project.lineOf('app/main.py', 'return greet')
    const probe = `${project.files['app/main.py']}`
    expect(probe).toContain('dog')
    const result = structured(
      await real.call(codeCompletions, { target: { path: 'app/main.py', line, matchText: 'greet(' }, prefix: 'do' }),
    )
    expect(result.items.map((i: any) => i.label)).toContain('dog')
  })

  it('code_inlay_hints is refused with UNSUPPORTED_OPERATION (pyright has no inlay hints)', async () => {
    const outcome = await real.call(codeInlayHints, { path: 'app/main.py' })
    expect(outcome.ok === false && outcome.error.code).toBe('UNSUPPORTED_OPERATION')
  })

  it('code_status: pyright is up for this root', async () => {
    const result = structured(await real.call(codeStatus, {}))
    const pyright = result.servers.find((s: any) => s.provider === 'local:pyright' && s.rootId !== undefined)
    expect(pyright).toMatchObject({ languages: expect.arrayContaining(['python']) })
    expect(pyright.operations).toContain('references')
    // Derived operations are listed apart from the native ones (RFC 0010).
    expect(pyright.operations).not.toContain('implementation')
    expect(pyright.derivedOperations).toEqual(['implementation', 'prepareTypeHierarchy', 'supertypes', 'subtypes'])
    const text = await real.call(codeStatus, {})
    expect(text.ok && text.text).toContain('derived by codeseam: implementation, prepareTypeHierarchy, supertypes, subtypes')
  })
})

// Issue 32: a search for `echo` listed parameters named echo (from a file earlier in path order) above the function.
describe('code_symbols search ranks declarations above variables of the same name', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost
  beforeAll(async () => {
    project = await pythonProject()
    writeFileSync(nodePath.join(project.root, 'app/a_callers.py'), 'def shout(relay_echo: str) -> str:\n    return relay_echo.upper()\n')
    writeFileSync(nodePath.join(project.root, 'app/z_relay.py'), 'def relay_echo(text: str) -> str:\n    return text\n')
    real = await startRealHost(project.root)
  }, 120_000)
  afterAll(async () => {
    await real?.dispose()
    await project?.remove()
  })

  it('the function relay_echo comes before the parameter relay_echo of an earlier file', async () => {
    const result = structured(await real.call(codeSymbols, { query: 'relay_echo' }))
    const exact = result.matches.filter((m: any) => m.name === 'relay_echo')
    expect(exact.map((m: any) => `${m.kind} ${m.path}`)).toEqual(
      expect.arrayContaining(['function app/z_relay.py', 'variable app/a_callers.py']),
    )
    expect(exact[0]).toMatchObject({ kind: 'function', path: 'app/z_relay.py' })
  })
})
