// The derived type hierarchy (RFC 0010) checked against a real server's own. clangd (17 and later) answers
// prepareTypeHierarchy, supertypes and subtypes natively, so lsp-local asks it natively; the test derives
// the same operations by calling deriveOperation directly over clangd's native outlines, definitions and
// references, and compares the two for every class and struct of the cpp-hierarchy fixture (templates,
// specializations, multiple and virtual inheritance, aliases, typedefs, namespaces, nested, final and
// anonymous-namespace classes, forward declarations, out-of-line definitions). The types are taken from
// clangd's own outline; answers are compared as sets of (file, line of the name), bases the derivation
// could not resolve by name. Every disagreement must be one listed in `known`, with its reason.
import { readFileSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import * as nodePath from 'node:path'

import {
  TextLines,
  createLsp,
  deriveOperation,
  type LspDerivationHost,
  type LspDocumentSymbol,
  type LspHierarchyItem,
  type LspService,
} from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture } from './helpers.js'

const clangd = (await builtinProfiles()).find((p) => p.id === 'clangd')
const skip =
  clangd === undefined
    ? 'there is no built-in clangd profile'
    : (clangd.unavailable ??
      ((clangd.operations ?? []).includes('subtypes') ? undefined : 'the clangd found is older than 17 (no type hierarchy)'))
if (skip !== undefined) console.log(`SKIPPED the derived C++ type hierarchy comparison against clangd: ${skip}`)

type Operation = 'prepareTypeHierarchy' | 'supertypes' | 'subtypes'
/** file:line (1-based line of the name) → `file name`, for one answer. */
type Answer = Map<string, string>

/**
 * The disagreements expected, by type (`file name` as clangd's outline names it) and operation, with the
 * items only one side gives (`file name`). In each, the derived answer is the right one or the only one a
 * derivation over declarations can give; the test fails if any of them changes or another appears.
 */
const known: ReadonlyArray<{ readonly at: string; readonly clangdOnly?: string[]; readonly derivedOnly?: string[]; readonly why: string }> =
  [
    // An implicit instantiation as a base (`Box<int>` through an alias, CRTP `Counter<Widget>`,
    // `Mixin<Blob>`): clangd looks a type's supertypes up in its index by symbol id, and the index holds no
    // implicit instantiation, so it lists none, while its own subtypes of the template list the class.
    ...[
      ['boxes.h IntCrate', 'boxes.h Box'],
      ['boxes.h Widget', 'boxes.h Counter'],
      ['boxes.h Mixed', 'boxes.h Mixin'],
    ].map(([type, base]) => ({
      at: `supertypes of ${type!}`,
      derivedOnly: [base!],
      why: 'clangd: no supertypes of implicit instantiations',
    })),
    {
      at: 'subtypes of boxes.h IntBox',
      derivedOnly: ['boxes.h Crate', 'boxes.h IntCrate'],
      why:
        'both prepare the alias at the template (same file and line), clangd as the instantiation Box<int>, which its index ' +
        'does not hold (no subtypes); the derivation resolves to declarations, so to the template Box, and gives its subtypes',
    },
    // A dependent base named through an alias template (`CrateOf<T>` = `Crate<T>`): clangd resolves dependent
    // bases only when they name a class template, so it misses Pallet both ways; the derivation follows the alias.
    ...['subtypes of boxes.h Crate', 'subtypes of boxes.h CrateOf'].map((at) => ({
      at,
      derivedOnly: ['boxes.h Pallet'],
      why: 'clangd: no base through an alias template',
    })),
    { at: 'supertypes of boxes.h Pallet', derivedOnly: ['boxes.h Crate'], why: 'clangd: no base through an alias template' },
    {
      at: 'supertypes of shapes.h Circle',
      derivedOnly: ['shapes.h Shape'],
      why:
        "a forward declaration: clangd answers from the file's own translation unit, where shapes.h (not including circle.h) " +
        'leaves Circle incomplete; the derivation reads the definition its name leads to, as clangd does for Outer::Later, ' +
        'whose definition is in the same file',
    },
  ]

/**
 * Supertype edges with no matching subtype edge (or the reverse), per side. Both miss Triangle as a subtype
 * of Polygon: Triangle names it through `using geo::Polygon;`, and clangd's references (what the derivation
 * reads) and its index relations (what its own subtypes read) both stop at the using-declaration.
 */
const oneWay = {
  clangd: [
    'hidden.cpp Triangle -> shapes.h Polygon (supertypes only)',
    'boxes.h IntCrate -> boxes.h Box (subtypes only)',
    'boxes.h Widget -> boxes.h Counter (subtypes only)',
    'boxes.h Mixed -> boxes.h Mixin (subtypes only)',
  ],
  derived: ['hidden.cpp Triangle -> shapes.h Polygon (supertypes only)'],
}

describe.skipIf(skip !== undefined)('derived type hierarchy against clangd', () => {
  const copy = copyFixture('cpp-hierarchy')
  const root = copy.root
  const leaks = new LeakCheck()
  let host: LocalHost
  let lsp: LspService
  const types: Array<{ file: string; name: string; symbol: LspDocumentSymbol; forward: boolean }> = []
  /** file:line → `file name`, for every type in the outlines. */
  const labels = new Map<string, string>()

  const keyOf = (path: string, line: number) => `${nodePath.relative(root, path)}:${line + 1}`
  const labelOf = (key: string) => labels.get(key) ?? key
  const answer = (items: ReadonlyArray<LspHierarchyItem>): Answer =>
    new Map(items.map((i) => [keyOf(i.path, i.selectionRange.start.line), `${nodePath.relative(root, i.path)} ${i.name}`]))

  beforeAll(async () => {
    host = await createLocalHost()
    lsp = createLsp()
    await host.attach(lsp, [{ root }])
    // With compile_flags.txt clangd has no background index: it knows the files it has opened and what they
    // include. Every file is outlined (so opened) first, so clangd's subtypes and the references a
    // derivation asks for search the same index.
    for (const file of (await readdir(root)).filter((f) => /\.(h|cpp)$/.test(f)).sort()) {
      const { symbols } = await lsp.query({ operation: 'documentSymbols', root, path: file })
      const lines = new TextLines(readFileSync(nodePath.join(root, file), 'utf8'))
      const walk = (list: ReadonlyArray<LspDocumentSymbol>) => {
        for (const symbol of list) {
          if (symbol.kind === 'class' || symbol.kind === 'struct') {
            // A forward declaration: the name is followed by `;` (found by text, after clangd's name range).
            const forward = /^\s*;/.test(lines.text.slice(lines.offsetAt(symbol.selectionRange.end)))
            types.push({ file, name: symbol.name, symbol, forward })
            labels.set(`${file}:${symbol.selectionRange.start.line + 1}`, `${file} ${symbol.name}`)
          }
          walk(symbol.children)
        }
      }
      walk(symbols)
    }
  })
  afterAll(async () => {
    await leaks.record()
    await lsp?.dispose()
    await host?.dispose()
    copy.remove()
    expect(await leaks.survivors()).toEqual([])
  })

  const derivation: LspDerivationHost = {
    ask: (request) => lsp.query(request),
    read: (path) => readFile(nodePath.resolve(root, path), 'utf8'),
  }

  test('the fixture declares at least 15 classes and structs, each named once per file', () => {
    console.log(
      `types (clangd's outline): ${[...labels].map(([key, label]) => `${key} ${label.slice(label.indexOf(' ') + 1)}`).join(', ')}`,
    )
    expect(types.length).toBeGreaterThanOrEqual(15)
    expect(new Set(labels.values()).size).toBe(types.length)
  })

  test('native and derived prepareTypeHierarchy, supertypes and subtypes agree for every type', async () => {
    const rows: Array<{
      operation: Operation
      type: string
      subject?: [string, string]
      clangd: Answer
      derived: Answer
      unresolved: string[]
    }> = []
    for (const type of types) {
      const path = nodePath.join(root, type.file)
      const position = type.symbol.selectionRange.start
      const label = `${type.file} ${type.name}`
      const native = await lsp.query({ operation: 'prepareTypeHierarchy', root, path, position })
      expect(native.meta.derived, 'clangd answers the type hierarchy natively').toBeUndefined()
      const derived = await deriveOperation('prepareTypeHierarchy', { operation: 'prepareTypeHierarchy', root, path, position }, derivation)
      rows.push({
        operation: 'prepareTypeHierarchy',
        type: label,
        clangd: answer(native.items),
        derived: answer(derived.items),
        unresolved: [],
      })
      const [nativeItem] = native.items
      const [derivedItem] = derived.items
      if (nativeItem === undefined || derivedItem === undefined) continue
      const subject: [string, string] = [...answer([nativeItem]).keys(), ...answer([derivedItem]).keys()] as [string, string]
      for (const operation of ['supertypes', 'subtypes'] as const) {
        const nativeNext = await lsp.query({ operation, root, item: nativeItem })
        expect(nativeNext.meta.derived).toBeUndefined()
        const derivedNext = await deriveOperation(operation, { operation, root, item: derivedItem }, derivation)
        const unresolved = [...(derivedNext.meta.derived?.unresolved ?? [])]
        rows.push({
          operation,
          type: label,
          ...(type.forward ? {} : { subject }),
          clangd: answer(nativeNext.items),
          derived: answer(derivedNext.items),
          unresolved,
        })
      }
    }

    const differences: string[] = []
    const wrongRows = new Set<(typeof rows)[number]>()
    const agreeingUnresolved: string[] = []
    for (const row of rows) {
      const clangdOnly = [...row.clangd].filter(([key]) => !row.derived.has(key)).map(([, name]) => name)
      const derivedOnly = [...row.derived].filter(([key]) => !row.clangd.has(key)).map(([, name]) => name)
      // A base the derivation left unresolved agrees when clangd gives no type of that name either.
      for (const name of row.unresolved) {
        const last = name.split('::').at(-1)!
        const named = [...row.clangd.values()].filter((n) => n.slice(n.indexOf(' ') + 1).replace(/<.*/, '') === last)
        if (named.length === 0) agreeingUnresolved.push(`${row.operation} of ${row.type}: ${name}`)
        else derivedOnly.push(`unresolved ${name}`)
      }
      if (clangdOnly.length + derivedOnly.length === 0) continue
      wrongRows.add(row)
      differences.push(
        `${row.operation} of ${row.type}: clangd only [${clangdOnly.sort().join(', ')}], derived only [${derivedOnly.sort().join(', ')}]`,
      )
    }
    const expected = known.map(
      (k) => `${k.at}: clangd only [${(k.clangdOnly ?? []).join(', ')}], derived only [${(k.derivedOnly ?? []).join(', ')}]`,
    )
    const table = (['prepareTypeHierarchy', 'supertypes', 'subtypes'] as const).map((operation) => {
      const of = rows.filter((row) => row.operation === operation)
      const wrong = of.filter((row) => wrongRows.has(row))
      const documented = wrong.filter((row) => expected.some((e) => e.startsWith(`${operation} of ${row.type}:`))).length
      return `${operation.padEnd(21)} checked ${String(of.length).padStart(3)}  equal ${String(of.length - wrong.length).padStart(3)}  known ${documented}  wrong ${wrong.length - documented}`
    })
    console.log(
      [
        '',
        ...table,
        'unresolved by both (by name):',
        ...agreeingUnresolved.map((u) => `  ${u}`),
        'differences:',
        ...differences.map((d) => {
          const why = known[expected.indexOf(d)]?.why
          return why === undefined ? `  WRONG ${d}` : `  known ${d}\n        (${why})`
        }),
      ].join('\n'),
    )
    expect(differences.sort()).toEqual(expected.sort())

    // Each side's own consistency: every supertype edge is a subtype edge of the base, and the reverse
    // (forward declarations left out: their subtypes name the definition).
    for (const side of ['clangd', 'derived'] as const) {
      const index = side === 'clangd' ? 0 : 1
      const up = new Set<string>()
      const down = new Set<string>()
      for (const row of rows) {
        if (row.subject === undefined) continue
        const subject = row.subject[index]
        for (const key of row[side].keys())
          (row.operation === 'supertypes' ? up : down).add(row.operation === 'supertypes' ? `${subject} -> ${key}` : `${key} -> ${subject}`)
      }
      const render = (edge: string, only: string) => `${edge.split(' -> ').map(labelOf).join(' -> ')} (${only} only)`
      const found = [
        ...[...up].filter((e) => !down.has(e)).map((e) => render(e, 'supertypes')),
        ...[...down].filter((e) => !up.has(e)).map((e) => render(e, 'subtypes')),
      ]
      expect(found.sort(), `${side}: one-way edges`).toEqual([...oneWay[side]].sort())
    }
  })
})
