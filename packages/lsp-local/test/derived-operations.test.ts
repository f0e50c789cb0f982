// Derived operations (RFC 0010) with real servers: the native TypeScript 7 server and pyright offer no type
// hierarchy, pyright no implementation; the provider builds them from outlines, headers, definitions and
// references, and says so in meta.derived. Expectations are found in the fixtures by text.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contentHash, createLsp, type LspHierarchyItem, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'

function suite(fixture: string, run: (ctx: { lsp: () => LspService; host: () => LocalHost; root: string }) => void): void {
  describe(fixture, () => {
    const copy = copyFixture(fixture)
    const leaks = new LeakCheck()
    let host: LocalHost
    let lsp: LspService
    beforeAll(async () => {
      host = await createLocalHost()
      lsp = createLsp()
      await host.attach(lsp, [{ root: copy.root }])
    })
    afterAll(async () => {
      await leaks.record()
      await lsp.dispose()
      await host.dispose()
      copy.remove()
      expect(await leaks.survivors()).toEqual([])
    })
    run({ lsp: () => lsp, host: () => host, root: copy.root })
  })
}

/** `name` at its declaration line, as `file:line` (line 1-based), found by text. */
function declared(root: string, file: string, needle: string): string {
  return `${file}:${positionOf(root, file, needle).line + 1}`
}

type Line = { start: { line: number } }
function where(root: string, items: ReadonlyArray<{ path: string; selectionRange?: Line; range: Line }>): string[] {
  return items.map((i) => `${nodePath.relative(root, i.path)}:${(i.selectionRange ?? i.range).start.line + 1}`).sort()
}

suite('derive-ts', ({ lsp, host, root }) => {
  const prepare = async (file: string, needle: string): Promise<LspHierarchyItem> => {
    const r = await lsp().query({ operation: 'prepareTypeHierarchy', root, path: file, position: positionOf(root, file, needle) })
    expect(r.meta.derived?.from).toContain('documentSymbols')
    expect(r.items).toHaveLength(1)
    return r.items[0]!
  }

  test('supertypes: an aliased import resolved to its class, implements lists, lib bases by name', async () => {
    const circle = await prepare('src/circle.ts', 'Circle<T')
    expect(circle.name).toBe('Circle')
    const up = await lsp().query({ operation: 'supertypes', root, item: circle })
    expect(where(root, up.items)).toEqual([declared(root, 'src/shapes.ts', 'Base implements')])
    expect(up.meta.derived).toEqual({ from: ['documentSymbols', 'definition'] })

    const base = await prepare('src/shapes.ts', 'Base implements')
    const baseUp = await lsp().query({ operation: 'supertypes', root, item: base })
    expect(where(root, baseUp.items)).toEqual(
      [declared(root, 'src/shapes.ts', 'Shape {'), declared(root, 'src/shapes.ts', 'Named {')].sort(),
    )

    const failure = await prepare('src/shapes.ts', 'Failure')
    const failureUp = await lsp().query({ operation: 'supertypes', root, item: failure })
    expect(failureUp.items).toEqual([])
    expect(failureUp.meta.derived?.unresolved).toEqual(['Error'])
  })

  test('subtypes: through an aliased import, and of an interface', async () => {
    const base = await prepare('src/shapes.ts', 'Base implements')
    const down = await lsp().query({ operation: 'subtypes', root, item: base })
    expect(where(root, down.items)).toEqual([declared(root, 'src/circle.ts', 'Circle<T')])
    expect(down.meta.derived?.from).toEqual(expect.arrayContaining(['references', 'documentSymbols']))
    const shape = await prepare('src/shapes.ts', 'Shape {')
    expect(where(root, (await lsp().query({ operation: 'subtypes', root, item: shape })).items)).toEqual([
      declared(root, 'src/shapes.ts', 'Base implements'),
    ])
  })

  test('prepare on a use of the type leads to its declaration', async () => {
    const item = await prepare('src/circle.ts', 'Circle {')
    expect(where(root, [item])).toEqual([declared(root, 'src/circle.ts', 'Circle<T')])
  })

  test("a derived answer carries the asked file's content hash, as the native answers about it saw it", async () => {
    const path = 'src/circle.ts'
    const r = await lsp().query({ operation: 'prepareTypeHierarchy', root, path, position: positionOf(root, path, 'Circle<T') })
    expect(r.meta.contentHash).toBe(contentHash(readFileSync(nodePath.join(root, path), 'utf8')))
    const up = await lsp().query({ operation: 'supertypes', root, item: r.items[0]! })
    expect(up.meta.contentHash).toBe(r.meta.contentHash)
  })

  test('implementation stays native where the server has it', async () => {
    const r = await lsp().query({
      operation: 'implementation',
      root,
      path: 'src/shapes.ts',
      position: positionOf(root, 'src/shapes.ts', 'Base implements'),
    })
    expect(r.meta.derived).toBeUndefined()
  })

  test('status lists the derived operations apart from the native ones', () => {
    const status = host()
      .status()
      .find((s) => s.providerId === 'local:typescript' && s.state === 'ready')
    expect(status?.derivedOperations).toEqual(['prepareTypeHierarchy', 'supertypes', 'subtypes'])
    expect(status?.operations).not.toContain('prepareTypeHierarchy')
  })
})

suite('derive-py', ({ lsp, host, root }) => {
  const prepare = async (file: string, needle: string): Promise<LspHierarchyItem> => {
    const r = await lsp().query({ operation: 'prepareTypeHierarchy', root, path: file, position: positionOf(root, file, needle) })
    expect(r.items).toHaveLength(1)
    return r.items[0]!
  }

  test('supertypes: a package re-export, an aliased import with a subscript; keyword arguments left out', async () => {
    const dog = await prepare('pkg/dogs.py', 'Dog(')
    const up = await lsp().query({ operation: 'supertypes', root, item: dog })
    expect(where(root, up.items)).toEqual([declared(root, 'pkg/base.py', 'Animal('), declared(root, 'pkg/base.py', 'Box(')].sort())
    expect(up.meta.derived?.unresolved).toBeUndefined()
    const box = await prepare('pkg/base.py', 'Box(')
    const boxUp = await lsp().query({ operation: 'supertypes', root, item: box })
    expect(boxUp.items).toEqual([])
    expect(boxUp.meta.derived?.unresolved).toEqual(['Generic'])
    const animalUp = await lsp().query({ operation: 'supertypes', root, item: await prepare('pkg/base.py', 'Animal(') })
    expect(animalUp.meta.derived?.unresolved).toEqual(['abc.ABC'])
  })

  test('subtypes and implementation: subclasses, and overriding methods transitively', async () => {
    const animal = await prepare('pkg/base.py', 'Animal(')
    const down = await lsp().query({ operation: 'subtypes', root, item: animal })
    expect(where(root, down.items)).toEqual([declared(root, 'pkg/dogs.py', 'Dog(')])
    const classes = await lsp().query({
      operation: 'implementation',
      root,
      path: 'pkg/base.py',
      position: positionOf(root, 'pkg/base.py', 'Animal('),
    })
    expect(where(root, classes.locations)).toEqual([declared(root, 'pkg/dogs.py', 'Dog('), declared(root, 'pkg/dogs.py', 'Puppy(')].sort())
    const methods = await lsp().query({
      operation: 'implementation',
      root,
      path: 'pkg/base.py',
      position: positionOf(root, 'pkg/base.py', 'speak'),
    })
    expect(where(root, methods.locations)).toEqual(
      [
        `pkg/dogs.py:${positionOf(root, 'pkg/dogs.py', 'speak').line + 1}`,
        `pkg/dogs.py:${positionOf(root, 'pkg/dogs.py', 'speak', { occurrence: 2 }).line + 1}`,
      ].sort(),
    )
    expect(methods.meta.derived?.from).toEqual(expect.arrayContaining(['documentSymbols', 'references']))
  })

  test('a qualified base is a subtype of its last part only, not of the class qualifying it', async () => {
    const deep = await prepare('pkg/nested.py', 'Deep(')
    const up = await lsp().query({ operation: 'supertypes', root, item: deep })
    expect(where(root, up.items)).toEqual([declared(root, 'pkg/nested.py', 'Inner:')])
    const inner = await prepare('pkg/nested.py', 'Inner:')
    expect(where(root, (await lsp().query({ operation: 'subtypes', root, item: inner })).items)).toEqual([
      declared(root, 'pkg/nested.py', 'Deep('),
    ])
    // `Outer` in `Outer.Inner` is a reference to Outer, but names no base of Deep.
    const outer = await prepare('pkg/nested.py', 'Outer:')
    expect((await lsp().query({ operation: 'subtypes', root, item: outer })).items).toEqual([])
  })

  test('status lists implementation and type hierarchy as derived', async () => {
    const status = host()
      .status()
      .find((s) => s.providerId === 'local:pyright' && s.state === 'ready')
    expect(status?.derivedOperations).toEqual(['implementation', 'prepareTypeHierarchy', 'supertypes', 'subtypes'])
  })
})
