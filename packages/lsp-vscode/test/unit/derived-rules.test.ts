// When the adapter derives and when it refuses to (rfc/0005, addendum "derived operations"), and that a failing
// native query inside a derivation is a typed error, never an empty answer.
import { lspOperations, type LspOperation, type LspProviderRequest, type LspQueryRequest, type LspResultFor } from '@codeseam/lsp'
import * as vscode from 'vscode'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from '../../src/index.js'
import { playToyLanguage, toyTypeScript } from './toy-language.js'
import { failure } from './failure.js'
import { answer, openWindow, type TestWindow } from './window.js'

const files = {
  'src/shapes.ts': 'export abstract class Base {\n  abstract area(): number\n}\n',
  'src/circle.ts':
    "import { Base } from './shapes'\n\nexport class Circle extends Base {\n  area(): number {\n    return 3\n  }\n}\n\nexport const unit = new Circle()\n",
}
const typeHierarchy: LspOperation[] = ['prepareTypeHierarchy', 'supertypes', 'subtypes']

let window: TestWindow
const providers: VsCodeProvider[] = []

function makeProvider(options: VsCodeProviderOptions = {}): VsCodeProvider {
  const made = createVsCodeProvider({ languages: ['typescript'], warmupWaitMs: 0, ...options })
  providers.push(made)
  return made
}

beforeEach(async () => {
  window = await openWindow(files)
  window.whileOpen(playToyLanguage(toyTypeScript, window.root))
})

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.dispose?.()))
  await window.dispose()
})

function query<R extends LspQueryRequest>(on: VsCodeProvider, request: R): Promise<LspResultFor<R['operation']>> {
  return on.query({ ...request, languageId: 'typescript' } as LspProviderRequest<R>, new AbortController().signal)
}

function prepare(on: VsCodeProvider, needle: string, file = 'src/circle.ts'): Promise<LspResultFor<'prepareTypeHierarchy'>> {
  const path = window.path(file)
  return query(on, { operation: 'prepareTypeHierarchy', root: window.root, path, position: window.at(path, needle) })
}

describe('what the provider claims and derives', () => {
  test('by default: every operation claimed, the type hierarchy listed as derived as well (VS Code is asked first)', () => {
    const provider = makeProvider()
    expect(provider.operations).toEqual(lspOperations)
    const [status] = provider.status?.() ?? []
    expect(status?.operations).toEqual(lspOperations)
    expect(status?.derivedOperations).toEqual(typeHierarchy)
  })

  test('operations VS Code lacks are claimed, derived, and VS Code is not asked for them', async () => {
    const native = lspOperations.filter((op) => !typeHierarchy.includes(op))
    const provider = makeProvider({ operations: native })
    const asked = answer('vscode.prepareTypeHierarchy', () => [])
    expect(provider.operations).toEqual(expect.arrayContaining(typeHierarchy))
    expect(provider.status?.()[0]?.operations).toEqual(native)
    expect(provider.status?.()[0]?.derivedOperations).toEqual(typeHierarchy)
    const prepared = await prepare(provider, 'Circle extends')
    expect(prepared.items.map((i) => i.name)).toEqual(['Circle'])
    expect(prepared.meta.derived).toBeDefined()
    expect(asked).toEqual([])
  })

  test('derive: false leaves every answer to VS Code, and refuses derived items instead of re-preparing them', async () => {
    const derived = (await prepare(makeProvider(), 'Circle extends')).items[0]!
    const provider = makeProvider({ derive: false })
    expect(provider.status?.()[0]?.derivedOperations).toBeUndefined()
    expect(makeProvider({ derive: false, operations: ['definition'] }).operations).toEqual(['definition'])
    const prepared = await prepare(provider, 'Circle extends')
    expect(prepared.items).toEqual([])
    expect(prepared.meta.derived).toBeUndefined()
    const error = await failure(query(provider, { operation: 'supertypes', root: window.root, item: derived }))
    expect(error.code).toBe('INVALID_ARGUMENT')
  })

  test('a derived item cannot continue a call hierarchy', async () => {
    const provider = makeProvider()
    const derived = (await prepare(provider, 'Circle extends')).items[0]!
    const error = await failure(query(provider, { operation: 'incomingCalls', root: window.root, item: derived }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toContain('call hierarchy')
  })

  test('missingProviders must name operations that can be derived from the ones offered', () => {
    expect(() => makeProvider({ missingProviders: { typescript: ['hover' as 'implementation'] } })).toThrow(
      expect.objectContaining({ code: 'INVALID_PROVIDER' }),
    )
    const withoutReferences = lspOperations.filter((op) => op !== 'references')
    expect(() => makeProvider({ operations: withoutReferences, missingProviders: { typescript: ['implementation'] } })).toThrow(
      expect.objectContaining({ code: 'INVALID_PROVIDER' }),
    )
    expect(() => makeProvider({ derive: false, missingProviders: { typescript: ['implementation'] } })).toThrow(
      expect.objectContaining({ code: 'INVALID_PROVIDER' }),
    )
  })
})

describe('failures inside a derivation are typed errors', () => {
  test('an outline command that fails (the extension host went away) fails the derived prepare', async () => {
    answer('vscode.executeDocumentSymbolProvider', () => {
      throw new Error('Extension host terminated unexpectedly')
    })
    const error = await failure(prepare(makeProvider(), 'Circle extends'))
    expect(error.code).toBe('SERVER_ERROR')
    expect(error.message).toContain('vscode.executeDocumentSymbolProvider')
  })

  test('a definition leading to a file that no longer exists is NOT_FOUND, not an empty hierarchy', async () => {
    const gone = vscode.Uri.file(window.path('src/gone.ts'))
    window.whileOpen(
      vscode.languages.registerDefinitionProvider('typescript', {
        provideDefinition: () => [new vscode.Location(gone, new vscode.Range(0, 0, 0, 4))],
      }),
    )
    const error = await failure(prepare(makeProvider(), 'Circle()'))
    expect(error.code).toBe('NOT_FOUND')
  })

  test('a type hierarchy provider that throws while preparing fails the query (VS Code passes that error on)', async () => {
    window.whileOpen(
      vscode.languages.registerTypeHierarchyProvider('typescript', {
        prepareTypeHierarchy: () => {
          throw new Error('the server crashed')
        },
        provideTypeHierarchySupertypes: () => [],
        provideTypeHierarchySubtypes: () => [],
      }),
    )
    const error = await failure(prepare(makeProvider(), 'Circle extends'))
    expect(error.code).toBe('SERVER_ERROR')
    expect(error.message).toContain('the server crashed')
  })

  test('the whole derivation shares the operation\u2019s one budget: a definition that never answers is TIMEOUT', async () => {
    window.whileOpen(vscode.languages.registerDefinitionProvider('typescript', { provideDefinition: () => new Promise(() => {}) }))
    const error = await failure(prepare(makeProvider({ timeoutMs: 300 }), 'Circle()'))
    expect(error.code).toBe('TIMEOUT')
    expect(error.message).toContain('prepareTypeHierarchy')
  })
})
