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

const allSymbolKinds = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind)

/** What the host tells servers it understands: everything the seam uses, in UTF-16. */
export const clientCapabilities: ClientCapabilities = {
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
