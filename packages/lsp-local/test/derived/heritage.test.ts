// The type-hierarchy oracles judged on their own (so they can fail): on the fixtures, against expectations found
// by text search in the fixture's files, never by hand-counted lines.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, test } from 'vitest'

import { positionOf } from '../helpers.js'
import { pythonHeritage, type HeritageOracle } from './heritage.js'
import { typeScriptHeritage } from './ts-heritage.js'

const fixtures = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')

/** `file:line` of the `occurrence`-th `needle` in a fixture file. */
function at(root: string, file: string, needle: string, occurrence = 1): string {
  return `${file}:${positionOf(root, file, needle, { occurrence }).line}`
}

/** `file:line` of every occurrence of `needle` in a fixture file. */
function everyLine(root: string, file: string, needle: string): string[] {
  const count = readFileSync(nodePath.join(root, file), 'utf8').split(needle).length - 1
  return Array.from({ length: count }, (_, index) => at(root, file, needle, index + 1))
}

function supertypesOf(oracle: HeritageOracle, key: string): ReadonlyArray<string> | undefined {
  return oracle.declarations.find((declaration) => declaration.key === key)?.supertypes
}

function subtypesOf(oracle: HeritageOracle, key: string): ReadonlyArray<string> | undefined {
  return oracle.declarations.find((declaration) => declaration.key === key)?.subtypes
}

/** `file:line` of the first `def method` after `class owner` in a fixture file. */
function defIn(root: string, file: string, owner: string, method: string): string {
  const text = readFileSync(nodePath.join(root, file), 'utf8')
  const index = text.indexOf(`def ${method}`, text.indexOf(`class ${owner}`))
  return `${file}:${text.slice(0, index).split('\n').length - 1}`
}

const sorted = (keys: ReadonlyArray<string>) => [...keys].sort()

describe('TypeScript heritage oracle (compiler API) on ts-hierarchy', () => {
  const root = nodePath.join(fixtures, 'ts-hierarchy')
  const oracle = typeScriptHeritage(root)
  const shapes = (needle: string, occurrence = 1) => at(root, 'src/shapes.ts', needle, occurrence)
  const derived = (needle: string) => at(root, 'src/derived.ts', needle)
  const errors = (needle: string) => at(root, 'src/errors.ts', needle)

  test('finds every named class and interface, merged declarations apart, class expressions not', () => {
    const text = ['shapes', 'errors', 'derived'].map((name) => readFileSync(nodePath.join(root, 'src', `${name}.ts`), 'utf8')).join('\n')
    const named = text.match(/\b(class|interface) [A-Z]\w*/g) ?? []
    expect(oracle.declarations).toHaveLength(named.length)
    expect(oracle.declarations.filter((d) => d.name === 'Merged').map((d) => d.key)).toEqual([
      shapes('interface Merged'),
      shapes('interface Merged', 2),
    ])
  })

  test('resolves renamed imports, re-exports, generics and namespace imports to the declarations', () => {
    expect(supertypesOf(oracle, derived('class Circle'))).toEqual(sorted([shapes('class Base'), shapes('interface Shape')]))
    expect(supertypesOf(oracle, derived('class Square'))).toEqual(sorted([shapes('class Plain'), shapes('interface Sized')]))
    expect(supertypesOf(oracle, shapes('interface Shape'))).toEqual(sorted([shapes('interface Named'), shapes('interface Sized')]))
    expect(supertypesOf(oracle, derived('class NotFound'))).toEqual([errors('class HttpFailure')])
    expect(supertypesOf(oracle, derived('class Nested'))).toEqual([shapes('class Base')])
    expect(supertypesOf(oracle, derived('class FromNamespace'))).toEqual(sorted([derived('class Nested'), derived('interface Inner')]))
  })

  test('follows a type alias naming a class; a merged interface base is every declaration', () => {
    expect(supertypesOf(oracle, derived('class ViaAlias'))).toEqual([shapes('class Plain')])
    // A type alias of an object type is a declaration in the workspace, so it is the supertype itself.
    expect(supertypesOf(oracle, derived('class Literal'))).toEqual([derived('type NamedLike')])
    expect(supertypesOf(oracle, derived('interface Both'))).toEqual(
      sorted([shapes('interface Named'), shapes('interface Sized'), shapes('interface Merged'), shapes('interface Merged', 2)]),
    )
  })

  test('lib bases and calls are names as written, without type or call arguments', () => {
    expect(supertypesOf(oracle, errors('class Failure'))).toEqual(['?Error'])
    expect(supertypesOf(oracle, derived('class Mixed'))).toEqual(['?Mixin'])
    expect(supertypesOf(oracle, derived('class Implementer'))).toEqual(sorted(['?Iterable', derived('interface Both')]))
  })

  test('subtypes are the inverse relation', () => {
    expect(subtypesOf(oracle, shapes('class Base'))).toEqual(sorted([derived('class Circle'), derived('class Nested')]))
    expect(subtypesOf(oracle, shapes('class Plain'))).toEqual(sorted([derived('class Square'), derived('class ViaAlias')]))
    expect(subtypesOf(oracle, shapes('interface Merged', 2))).toEqual([derived('interface Both')])
    expect(subtypesOf(oracle, derived('class Mixed'))).toEqual([])
    // A class expression is a subtype too (but no declaration asked about).
    expect(subtypesOf(oracle, shapes('interface Sized'))).toEqual(
      sorted([derived('class Square'), derived('interface Both'), derived('class implements lib.Sized'), shapes('interface Shape')]),
    )
  })
})

describe('Python heritage oracle (ast) on py-hierarchy', () => {
  const root = nodePath.join(fixtures, 'py-hierarchy')
  const oracle = pythonHeritage(root)
  const core = (needle: string) => at(root, 'pkg/core.py', needle)
  const levels = (needle: string) => at(root, 'pkg/sub/levels.py', needle)

  test('finds every class, nested in classes and functions too', () => {
    const count = (file: string) => (readFileSync(nodePath.join(root, file), 'utf8').match(/^\s*class \w+/gm) ?? []).length
    expect(oracle.declarations).toHaveLength(count('pkg/core.py') + count('pkg/sub/levels.py'))
    expect(oracle.declarations.map((d) => d.key)).toEqual(expect.arrayContaining([levels('class Inner'), levels('class Local')]))
  })

  test('resolves relative imports, module aliases, re-exports, aliases and enclosing class scopes', () => {
    expect(supertypesOf(oracle, levels('class Middle'))).toEqual(sorted([core('class Base'), core('class Mixin')]))
    expect(supertypesOf(oracle, levels('class ViaAlias'))).toEqual([core('class Base')])
    expect(supertypesOf(oracle, levels('class ViaModule'))).toEqual([core('class Registry')])
    expect(supertypesOf(oracle, levels('class ViaReexport'))).toEqual([core('class Base')])
    expect(supertypesOf(oracle, levels('class Boxed'))).toEqual(sorted([core('class Box'), core('class Mixin')]))
    expect(supertypesOf(oracle, levels('class Sibling'))).toEqual([levels('class Inner')])
    expect(supertypesOf(oracle, levels('class Local'))).toEqual([levels('class Leaf')])
    expect(supertypesOf(oracle, levels('class Multi'))).toEqual(sorted([levels('class Deep'), core('class Legacy')]))
  })

  test('outside bases are names as written; metaclass= is no base', () => {
    expect(supertypesOf(oracle, core('class Base'))).toEqual(['?abc.ABC'])
    expect(supertypesOf(oracle, core('class Box'))).toEqual(['?Generic'])
    expect(supertypesOf(oracle, core('class Registry'))).toEqual([])
    expect(supertypesOf(oracle, levels('class Counter'))).toEqual(['?collections.OrderedDict'])
    expect(supertypesOf(oracle, levels('class Dynamic'))).toEqual(['?type'])
  })

  test('subtypes are the inverse relation', () => {
    expect(subtypesOf(oracle, core('class Base'))).toEqual(
      sorted([levels('class Middle'), levels('class ViaAlias'), levels('class ViaReexport'), levels('class Inner')]),
    )
    expect(subtypesOf(oracle, levels('class Leaf'))).toEqual(sorted([levels('class Deep'), levels('class Local')]))
  })

  test('overrides: every def of the name in every transitive subclass', () => {
    const overriders = (key: string) => oracle.overrides.find((override) => override.key === key)?.overriders
    expect(overriders(core('def run'))).toEqual(sorted(everyLine(root, 'pkg/sub/levels.py', 'def run')))
    expect(overriders(core('def stop'))).toEqual(sorted(everyLine(root, 'pkg/sub/levels.py', 'def stop')))
    const run = (owner: string) => defIn(root, 'pkg/sub/levels.py', owner, 'run')
    expect(overriders(run('Middle'))).toEqual(sorted([run('Leaf'), run('Deep'), run('Local'), run('Multi')]))
    expect(overriders(defIn(root, 'pkg/core.py', 'Legacy', 'run'))).toEqual([run('Multi')])
    expect(overriders(run('Multi'))).toBeUndefined()
  })
})
