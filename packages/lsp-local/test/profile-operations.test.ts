import { describe, expect, it } from 'vitest'

import { clangdOperations, clangdOperationsFor, nativeTypeScriptOperations, pyrightOperations } from '../src/index.js'
import { supportedOperations, type SupportTable } from '../src/profile/profile-operations.js'

// The exported lists are public API: the per-profile records must yield exactly the lists they replaced.
describe('profile operation lists', () => {
  it('native TypeScript: everything but declaration and type hierarchy', () => {
    expect(nativeTypeScriptOperations).toEqual([
      'definition',
      'typeDefinition',
      'implementation',
      'references',
      'hover',
      'signatureHelp',
      'documentSymbols',
      'workspaceSymbols',
      'prepareCallHierarchy',
      'incomingCalls',
      'outgoingCalls',
      'diagnostics',
      'inlayHints',
      'completion',
      'codeActions',
      'prepareRename',
      'rename',
      'format',
      'resolveCodeAction',
    ])
  })

  it('pyright: no implementation, type hierarchy, inlay hints, code actions or formatting', () => {
    expect(pyrightOperations).toEqual([
      'definition',
      'typeDefinition',
      'declaration',
      'references',
      'hover',
      'signatureHelp',
      'documentSymbols',
      'workspaceSymbols',
      'prepareCallHierarchy',
      'incomingCalls',
      'outgoingCalls',
      'diagnostics',
      'completion',
      'prepareRename',
      'rename',
    ])
  })

  it('clangd: every operation, fewer by version', () => {
    expect(clangdOperations).toHaveLength(23)
    const missing = (major: number | undefined) => clangdOperations.filter((o) => !clangdOperationsFor(major).includes(o))
    expect(missing(14)).toEqual(['outgoingCalls', 'prepareTypeHierarchy', 'supertypes', 'subtypes', 'inlayHints'])
    expect(missing(undefined)).toEqual(missing(14))
    expect(missing(16)).toEqual(['outgoingCalls', 'prepareTypeHierarchy', 'supertypes', 'subtypes'])
    expect(missing(17)).toEqual(['outgoingCalls'])
    expect(missing(20)).toEqual([])
  })

  it('a versioned entry counts without a version and from its major on', () => {
    const table = Object.fromEntries(clangdOperations.map((o) => [o, { no: 'x' }])) as unknown as SupportTable
    const versioned = { ...table, hover: { since: 5, why: 'y' }, definition: true } as SupportTable
    expect(supportedOperations(versioned)).toEqual(['definition', 'hover'])
    expect(supportedOperations(versioned, 4)).toEqual(['definition'])
    expect(supportedOperations(versioned, 5)).toEqual(['definition', 'hover'])
  })
})
