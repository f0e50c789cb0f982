// Derived operations where VS Code's providers lack them (rfc/0005, addendum "derived operations"): a type hierarchy
// built from the outline, the class header, definitions and references of a language extension that has
// no type hierarchy provider, played through the fake's provider registry. Positions are found by text.
import * as nodePath from 'node:path'

import { type LspProviderRequest, type LspQueryRequest, type LspResultFor } from '@codeseam/lsp'
import * as vscode from 'vscode'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from '../../src/index.js'
import { host } from '../fake-vscode/host.js'
import { playToyLanguage, pythonBasics, toyPython, toyTypeScript } from './toy-language.js'
import { answer, openWindow, type TestWindow } from './window.js'

const files = {
  'src/shapes.ts':
    'export interface Shape {\n  area(): number\n}\n\nexport abstract class Base implements Shape {\n  abstract area(): number\n}\n',
  'src/circle.ts':
    "import { Base } from './shapes'\n\nexport class Circle extends Base {\n  area(): number {\n    return 3\n  }\n}\n\n" +
    'export class Ring extends Circle {\n  override area(): number {\n    return 1\n  }\n}\n\nexport const unit = new Circle()\n',
  'pkg/base.py': 'class Animal:\n    def speak(self):\n        return "..."\n',
  'pkg/dogs.py':
    'from .base import Animal\n\n\nclass Dog(Animal):\n    def speak(self):\n        return "woof"\n\n\n' +
    'class Puppy(Dog):\n    def speak(self):\n        return "yip"\n',
}

let window: TestWindow
const providers: VsCodeProvider[] = []

function makeProvider(options: VsCodeProviderOptions = {}): VsCodeProvider {
  const made = createVsCodeProvider({ languages: ['typescript', 'python'], warmupWaitMs: 0, ...options })
  providers.push(made)
  return made
}

beforeEach(async () => {
  window = await openWindow(files)
  host.extensions = [...host.extensions, pythonBasics]
  window.whileOpen(playToyLanguage(toyTypeScript, window.root))
  window.whileOpen(playToyLanguage(toyPython, window.root))
})

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.dispose?.()))
  await window.dispose()
})

function query<R extends LspQueryRequest>(on: VsCodeProvider, request: R): Promise<LspResultFor<R['operation']>> {
  const path = 'path' in request ? request.path : (request as { item?: { path: string } }).item?.path
  const languageId = path?.endsWith('.py') ? 'python' : 'typescript'
  return on.query({ ...request, languageId } as LspProviderRequest<R>, new AbortController().signal)
}

async function prepare(on: VsCodeProvider, file: string, needle: string): Promise<LspResultFor<'prepareTypeHierarchy'>> {
  const path = window.path(file)
  return query(on, { operation: 'prepareTypeHierarchy', root: window.root, path, position: window.at(path, needle) })
}

/** `file:line` (1-based) of each item or location, sorted. */
function where(items: ReadonlyArray<{ path: string; selectionRange?: { start: { line: number } }; range: { start: { line: number } } }>) {
  return items.map((i) => `${nodePath.relative(window.root, i.path)}:${(i.selectionRange ?? i.range).start.line + 1}`).sort()
}

function declared(file: string, needle: string): string {
  return `${file}:${window.at(window.path(file), needle).line + 1}`
}

describe('type hierarchy where no extension provides one', () => {
  test('prepare at a class answers a derived item, marked so, after VS Code answered nothing', async () => {
    const provider = makeProvider()
    const prepared = await prepare(provider, 'src/circle.ts', 'Circle extends')
    expect(prepared.items.map((i) => i.name)).toEqual(['Circle'])
    expect(prepared.items[0]!.data).toEqual({ codeseamDerived: 1 })
    expect(prepared.meta.derived?.from).toEqual(['documentSymbols'])
    expect(where(prepared.items)).toEqual([declared('src/circle.ts', 'Circle extends')])
  })

  test('supertypes and subtypes of derived items are derived, never asked of VS Code', async () => {
    const provider = makeProvider()
    const refuse = () => {
      throw new Error('a derived item must not reach VS Code')
    }
    const askedUp = answer('vscode.provideSupertypes', refuse)
    const askedDown = answer('vscode.provideSubtypes', refuse)
    const [ring] = (await prepare(provider, 'src/circle.ts', 'Ring')).items
    const up = await query(provider, { operation: 'supertypes', root: window.root, item: ring! })
    expect(where(up.items)).toEqual([declared('src/circle.ts', 'Circle extends')])
    expect(up.meta.derived).toEqual({ from: ['documentSymbols', 'definition'] })

    const [base] = (await prepare(provider, 'src/shapes.ts', 'Base implements')).items
    const baseUp = await query(provider, { operation: 'supertypes', root: window.root, item: base! })
    expect(where(baseUp.items)).toEqual([declared('src/shapes.ts', 'Shape {')])
    expect(baseUp.items.every((i) => i.data !== undefined && (i.data as { codeseamDerived?: number }).codeseamDerived === 1)).toBe(true)

    const down = await query(provider, { operation: 'subtypes', root: window.root, item: base! })
    expect(where(down.items)).toEqual([declared('src/circle.ts', 'Circle extends')])
    expect(down.meta.derived?.from).toEqual(expect.arrayContaining(['references', 'documentSymbols']))
    expect([...askedUp, ...askedDown]).toEqual([])
  })

  test('prepare on a use of a type leads to its declaration', async () => {
    const prepared = await prepare(makeProvider(), 'src/circle.ts', 'Circle()')
    expect(where(prepared.items)).toEqual([declared('src/circle.ts', 'Circle extends')])
    expect(prepared.meta.derived?.from).toEqual(['documentSymbols', 'definition'])
  })

  test('where no type is found either, the answer is VS Code\u2019s own empty one', async () => {
    const prepared = await prepare(makeProvider(), 'src/circle.ts', 'return 3')
    expect(prepared.items).toEqual([])
    expect(prepared.meta.derived).toBeUndefined()
  })

  test('the derivation reads unsaved buffers: a subclass typed but not saved is a subtype', async () => {
    const provider = makeProvider()
    const circle = host.openDocument(vscode.Uri.file(window.path('src/circle.ts')))
    circle.setText(`${circle.getText()}\nexport class Oval extends Base {\n  area(): number {\n    return 2\n  }\n}\n`)
    const [base] = (await prepare(provider, 'src/shapes.ts', 'Base implements')).items
    const down = await query(provider, { operation: 'subtypes', root: window.root, item: base! })
    expect(where(down.items)).toEqual([declared('src/circle.ts', 'Circle extends'), declared('src/circle.ts', 'Oval')].sort())
  })

  test('Python-like: through an import, transitively for implementation when the language is declared without one', async () => {
    const provider = makeProvider({ missingProviders: { python: ['implementation'] } })
    const [dog] = (await prepare(provider, 'pkg/dogs.py', 'Dog(')).items
    const up = await query(provider, { operation: 'supertypes', root: window.root, item: dog! })
    expect(where(up.items)).toEqual([declared('pkg/base.py', 'Animal')])
    const [animal] = (await prepare(provider, 'pkg/base.py', 'Animal')).items
    const down = await query(provider, { operation: 'subtypes', root: window.root, item: animal! })
    expect(where(down.items)).toEqual([declared('pkg/dogs.py', 'Dog(')])

    const base = window.path('pkg/base.py')
    const methods = await query(provider, {
      operation: 'implementation',
      root: window.root,
      path: base,
      position: window.at(base, 'speak'),
    })
    expect(where(methods.locations)).toEqual(
      [
        declared('pkg/dogs.py', 'speak(self):\n        return "woof"'),
        declared('pkg/dogs.py', 'speak(self):\n        return "yip"'),
      ].sort(),
    )
    expect(methods.meta.derived?.from).toEqual(expect.arrayContaining(['documentSymbols', 'references']))
    expect(provider.status?.()[0]?.derivedOperations).toEqual(['implementation', 'prepareTypeHierarchy', 'supertypes', 'subtypes'])
  })

  test('implementation stays VS Code\u2019s answer, empty included, unless the language is declared without a provider', async () => {
    const calls = answer('vscode.executeImplementationProvider', () => [])
    const shapes = window.path('src/shapes.ts')
    const r = await query(makeProvider(), {
      operation: 'implementation',
      root: window.root,
      path: shapes,
      position: window.at(shapes, 'Base implements'),
    })
    expect(r.locations).toEqual([])
    expect(r.meta.derived).toBeUndefined()
    expect(calls.length).toBeGreaterThan(0) // asked (and, the language being cold, asked once more)
  })
})

describe('a language with a type hierarchy provider', () => {
  test('is answered natively: no meta.derived, VS Code items, follow-ups through VS Code', async () => {
    const circle = vscode.Uri.file(window.path('src/circle.ts'))
    const item = (name: string, needle: string) =>
      new vscode.TypeHierarchyItem(
        vscode.SymbolKind.Class,
        name,
        '',
        circle,
        window.rangeOf(circle.fsPath, needle),
        window.rangeOf(circle.fsPath, name),
      )
    const supertypesAsked: string[] = []
    window.whileOpen(
      vscode.languages.registerTypeHierarchyProvider('typescript', {
        prepareTypeHierarchy: () => item('Ring', 'Ring'),
        provideTypeHierarchySupertypes: (of) => {
          supertypesAsked.push(of.name)
          return [item('Circle', 'Circle')]
        },
        provideTypeHierarchySubtypes: () => [],
      }),
    )
    const provider = makeProvider()
    const prepared = await prepare(provider, 'src/circle.ts', 'Ring')
    expect(prepared.meta.derived).toBeUndefined()
    expect(prepared.items[0]?.data).toEqual({ family: 'type' })
    const up = await query(provider, { operation: 'supertypes', root: window.root, item: prepared.items[0]! })
    expect(up.items.map((i) => i.name)).toEqual(['Circle'])
    expect(up.meta.derived).toBeUndefined()
    expect(supertypesAsked).toEqual(['Ring'])
  })
})
