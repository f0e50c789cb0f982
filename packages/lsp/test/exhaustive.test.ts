import { describe, expect, it } from 'vitest'

import { lspOperations, operationInfo, type LspOperation, type LspQueryResult, type LspResultFor } from '../src/index.js'
import { resultKindByOperation } from '../src/vocabulary.js'

/**
 * Type-level proof of exhaustiveness. Adding an operation to `lspOperations` without handling it here (and in
 * `resultKindByOperation` / `operationInfo`, which use `satisfies` over every operation) fails `pnpm typecheck`.
 */
function describeOperation(operation: LspOperation): string {
  switch (operation) {
    case 'definition':
    case 'typeDefinition':
    case 'declaration':
    case 'implementation':
    case 'references':
      return 'navigation'
    case 'hover':
    case 'signatureHelp':
    case 'completion':
    case 'inlayHints':
      return 'information'
    case 'documentSymbols':
    case 'workspaceSymbols':
      return 'symbols'
    case 'prepareCallHierarchy':
    case 'incomingCalls':
    case 'outgoingCalls':
    case 'prepareTypeHierarchy':
    case 'supertypes':
    case 'subtypes':
      return 'hierarchy'
    case 'diagnostics':
      return 'diagnostics'
    case 'codeActions':
    case 'prepareRename':
    case 'rename':
    case 'format':
    case 'resolveCodeAction':
      return 'edits'
    default:
      return operation satisfies never
  }
}

function describeResult(result: LspQueryResult): string {
  switch (result.kind) {
    case 'locations':
    case 'hover':
    case 'signatureHelp':
    case 'documentSymbols':
    case 'workspaceSymbols':
    case 'hierarchyItems':
    case 'hierarchyCalls':
    case 'diagnostics':
    case 'inlayHints':
    case 'completion':
    case 'codeActions':
    case 'prepareRename':
    case 'workspaceEdit':
    case 'codeActionResolution':
      return result.kind
    default:
      return result satisfies never
  }
}

// The operation → result map is precise: references yields locations, rename yields a workspace edit.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const referencesIsLocations: Equal<LspResultFor<'references'>['kind'], 'locations'> = true
const renameIsEdit: Equal<LspResultFor<'rename'>['kind'], 'workspaceEdit'> = true

describe('operation vocabulary', () => {
  it('every operation has a result kind, a scope and a category', () => {
    expect(referencesIsLocations && renameIsEdit).toBe(true)
    for (const operation of lspOperations) {
      expect(describeOperation(operation)).toBeTypeOf('string')
      expect(resultKindByOperation[operation]).toBeTypeOf('string')
      expect(operationInfo[operation].scope).toBeTypeOf('string')
    }
    expect(lspOperations).toHaveLength(23)
    expect(
      describeResult({
        kind: 'hover',
        hover: null,
        meta: { providerId: 'p', status: 'ready', warm: true, truncated: false, elapsedMs: 0 },
      }),
    ).toBe('hover')
  })
})
