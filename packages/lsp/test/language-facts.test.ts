import { describe, expect, it } from 'vitest'

import { builtInFactsFor, createLsp, isLspError, resultMeta, validateIdentifier, type LspLanguageFacts } from '../src/index.js'
import { staticProvider } from './providers.js'

/** Identifier rules of the seam's language facts (RFC 0018), and the seam's refusal of a bad rename. */

function refused(languageId: string, name: string, member?: boolean): string {
  try {
    validateIdentifier(builtInFactsFor(languageId), languageId, name, member === undefined ? {} : { member })
  } catch (error) {
    if (isLspError(error, 'INVALID_ARGUMENT')) return error.message
    throw error
  }
  return ''
}

const ok = (languageId: string, name: string, member?: boolean) =>
  expect(refused(languageId, name, member), `${languageId} ${name}`).toBe('')

describe('identifier rules per language', () => {
  it('Python: unicode names and soft keywords are names; keywords and punctuation are not', () => {
    for (const name of ['total', '_private', 'größe', 'match', 'type', 'case']) ok('python', name)
    expect(refused('python', 'class')).toMatch(/"class" is a Python keyword/)
    expect(refused('python', 'None')).toMatch(/keyword/)
    expect(refused('python', 'a-b')).toMatch(/not a valid Python identifier/)
    expect(refused('python', '2x')).toMatch(/not a valid/)
    expect(refused('python', 'a.b')).toMatch(/not a valid/)
  })

  it('TypeScript/JavaScript: $ names, private names and reserved words as members; reserved words elsewhere refused', () => {
    for (const name of ['$x', '_y', 'camelCase', 'type', 'async']) ok('typescript', name)
    ok('typescript', '#count', true)
    ok('javascript', 'delete', true)
    ok('typescript', 'default') // member or not is unknown: the server decides
    expect(refused('typescript', 'class', false)).toMatch(/TypeScript\/JavaScript keyword/)
    expect(refused('typescriptreact', 'a b')).toMatch(/without surrounding whitespace|not a valid/)
    expect(refused('python', '#count')).toMatch(/not a valid/)
  })

  it('Rust: raw identifiers are names, keywords and a lone underscore are not', () => {
    for (const name of ['r#type', 'snake_case', '_unused']) ok('rust', name)
    expect(refused('rust', 'fn')).toMatch(/Rust keyword/)
    expect(refused('rust', '_')).toMatch(/not a valid/)
  })

  it('Go, C and C++', () => {
    ok('go', 'Handler')
    expect(refused('go', 'func')).toMatch(/Go keyword/)
    ok('c', 'class')
    expect(refused('cpp', 'class')).toMatch(/C\+\+ keyword/)
    expect(refused('c', 'while')).toMatch(/C keyword/)
  })

  it('an unknown language is not checked, and says so', () => {
    expect(validateIdentifier(undefined, 'zig', 'whatever')).toEqual({
      languageId: 'zig',
      checked: false,
      note: expect.stringContaining('only the server'),
    })
    expect(() => validateIdentifier(undefined, 'zig', ' x')).toThrow(/whitespace/)
  })
})

describe('the seam', () => {
  it('refuses a rename to a keyword before the provider is asked', async () => {
    const lsp = createLsp()
    const provider = staticProvider('py', { '.py': 'python' }, { operations: ['rename'] })
    lsp.registerProvider(provider)
    const error = await lsp
      .query({ operation: 'rename', root: '/r', path: '/r/a.py', position: { line: 0, character: 0 }, newName: 'class' })
      .catch((e: unknown) => e)
    expect(isLspError(error, 'INVALID_ARGUMENT')).toBe(true)
    expect(provider.calls).toEqual([])
    await lsp.dispose()
  })

  it("a provider's own facts win while it is registered, and go with it", async () => {
    const lsp = createLsp()
    const strict: LspLanguageFacts = { ...builtInFactsFor('python'), label: 'strict Python', keywords: ['print'] }
    const release = lsp.registerProvider({
      ...staticProvider(
        'py',
        { '.py': 'python' },
        { operations: ['rename'], answer: () => ({ kind: 'workspaceEdit', edit: { operations: [] }, meta: resultMeta('py') }) },
      ),
      languageFacts: [strict],
    })
    expect(lsp.languageFacts('python')?.label).toBe('strict Python')
    const error = await lsp
      .query({ operation: 'rename', root: '/r', path: '/r/a.py', position: { line: 0, character: 0 }, newName: 'print' })
      .catch((e: unknown) => e)
    expect(isLspError(error, 'INVALID_ARGUMENT')).toBe(true)
    await release()
    expect(lsp.languageFacts('python')?.label).toBe('Python')
    await lsp.dispose()
  })
})
