import { lspOperations, operationInfo } from '@codeseam/lsp'
import {
  CodeActionKind,
  DiagnosticTag,
  InsertTextMode,
  MarkupKind,
  PositionEncodingKind,
  ResourceOperationKind,
  SymbolKind,
  type ClientCapabilities,
} from 'vscode-languageserver-protocol/node'
import { describe, expect, it } from 'vitest'

import { supportsOperation } from '../src/features/capabilities.js'
import { clientCapabilities, clientCapabilitiesFor, mergeCapabilities } from '../src/features/client-capabilities.js'
import { featureTable } from '../src/features/table.js'

const allSymbolKinds = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind)

/** The client capabilities as one literal, before they were assembled from the feature records. */

/** What the host tells servers it understands: everything the seam uses, in UTF-16. */
const before: ClientCapabilities = {
  general: { positionEncodings: [PositionEncodingKind.UTF16] },
  window: { workDoneProgress: true, showDocument: { support: false } },
  workspace: {
    applyEdit: true,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: [ResourceOperationKind.Create, ResourceOperationKind.Rename, ResourceOperationKind.Delete],
      changeAnnotationSupport: { groupsOnLabel: false },
    },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: true, symbolKind: { valueSet: allSymbolKinds } },
    executeCommand: { dynamicRegistration: true },
    workspaceFolders: true,
    configuration: true,
    diagnostics: { refreshSupport: true },
    inlayHint: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: false, willSave: false },
    completion: {
      dynamicRegistration: true,
      completionItem: {
        snippetSupport: false,
        documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
        insertTextModeSupport: { valueSet: [InsertTextMode.asIs] },
      },
      contextSupport: true,
    },
    hover: { dynamicRegistration: true, contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
    signatureHelp: {
      dynamicRegistration: true,
      signatureInformation: {
        documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
        parameterInformation: { labelOffsetSupport: true },
        activeParameterSupport: true,
      },
      contextSupport: true,
    },
    declaration: { dynamicRegistration: true, linkSupport: true },
    definition: { dynamicRegistration: true, linkSupport: true },
    typeDefinition: { dynamicRegistration: true, linkSupport: true },
    implementation: { dynamicRegistration: true, linkSupport: true },
    references: { dynamicRegistration: true },
    documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: allSymbolKinds } },
    codeAction: {
      dynamicRegistration: true,
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            CodeActionKind.Empty,
            CodeActionKind.QuickFix,
            CodeActionKind.Refactor,
            CodeActionKind.RefactorExtract,
            CodeActionKind.RefactorInline,
            CodeActionKind.RefactorRewrite,
            CodeActionKind.Source,
            CodeActionKind.SourceOrganizeImports,
            CodeActionKind.SourceFixAll,
          ],
        },
      },
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit', 'command'] },
    },
    formatting: { dynamicRegistration: true },
    rangeFormatting: { dynamicRegistration: true },
    rename: { dynamicRegistration: true, prepareSupport: true, honorsChangeAnnotations: true },
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: true,
      tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] },
      dataSupport: true,
    },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    callHierarchy: { dynamicRegistration: true },
    typeHierarchy: { dynamicRegistration: true },
    inlayHint: { dynamicRegistration: true },
  },
}

describe('feature records', () => {
  it('assemble the same client capabilities the host sent as one literal', () => {
    expect(clientCapabilities).toEqual(before)
  })

  it("add a language record's own client capabilities for its server only (rust-analyzer: experimental/serverStatus)", () => {
    // Its readiness comes from experimental/serverStatus, which it sends only to clients that ask.
    const rust = clientCapabilitiesFor({ id: 'rust-analyzer', command: 'rust-analyzer', args: [] })
    expect(rust).toEqual({ ...before, experimental: { serverStatusNotification: true } })
    expect(clientCapabilitiesFor({ id: 'gopls', command: 'gopls', args: [] })).toBe(clientCapabilities)
    expect(clientCapabilitiesFor({ id: 'my-own', command: '/opt/rust-analyzer', args: [] })).toBe(rust)
  })

  it('refuse two records asking for one client capability differently', () => {
    expect(() =>
      mergeCapabilities(
        { textDocument: { hover: { contentFormat: ['markdown'] } } },
        { textDocument: { hover: { contentFormat: ['plaintext'] } } },
      ),
    ).toThrow(/textDocument\.hover\.contentFormat/)
  })

  it('load every project for each operation the seam says covers every project', () => {
    for (const operation of lspOperations) {
      if (operationInfo[operation].coversEveryProject) expect(featureTable[operation].scope, operation).toBe('everyProject')
    }
  })

  it('keep the sets the provider used before the records', () => {
    const everyProject = lspOperations.filter((o) => featureTable[o].scope === 'everyProject')
    expect(everyProject.sort()).toEqual([
      'implementation',
      'incomingCalls',
      'prepareCallHierarchy',
      'references',
      'rename',
      'workspaceSymbols',
    ])
    const retried = lspOperations.filter((o) => featureTable[o].retryWhenEmpty)
    expect(retried.sort()).toEqual([
      'declaration',
      'definition',
      'documentSymbols',
      'hover',
      'implementation',
      'references',
      'typeDefinition',
      'workspaceSymbols',
    ])
  })

  it('enable an operation by its capability or a dynamic registration of its method', () => {
    expect(supportsOperation('hover', { hoverProvider: true }, new Map())).toBe(true)
    expect(supportsOperation('hover', {}, new Map())).toBe(false)
    expect(supportsOperation('hover', {}, new Map([['r1', { id: 'r1', method: 'textDocument/hover' }]]))).toBe(true)
    expect(supportsOperation('format', { documentRangeFormattingProvider: true }, new Map())).toBe(true)
    expect(supportsOperation('diagnostics', {}, new Map())).toBe(true)
  })
})
