import * as vscode from 'vscode'

/**
 * VS Code's built-in API commands this adapter calls, with the argument and answer shapes documented in
 * "Built-in Commands" of the VS Code API. Every command name lives here and nowhere else.
 */
export const vsCommands = {
  definition: 'vscode.executeDefinitionProvider',
  typeDefinition: 'vscode.executeTypeDefinitionProvider',
  declaration: 'vscode.executeDeclarationProvider',
  implementation: 'vscode.executeImplementationProvider',
  references: 'vscode.executeReferenceProvider',
  hover: 'vscode.executeHoverProvider',
  signatureHelp: 'vscode.executeSignatureHelpProvider',
  documentSymbols: 'vscode.executeDocumentSymbolProvider',
  workspaceSymbols: 'vscode.executeWorkspaceSymbolProvider',
  prepareCallHierarchy: 'vscode.prepareCallHierarchy',
  incomingCalls: 'vscode.provideIncomingCalls',
  outgoingCalls: 'vscode.provideOutgoingCalls',
  prepareTypeHierarchy: 'vscode.prepareTypeHierarchy',
  supertypes: 'vscode.provideSupertypes',
  subtypes: 'vscode.provideSubtypes',
  codeActions: 'vscode.executeCodeActionProvider',
  formatDocument: 'vscode.executeFormatDocumentProvider',
  formatRange: 'vscode.executeFormatRangeProvider',
  prepareRename: 'vscode.prepareRename',
  rename: 'vscode.executeDocumentRenameProvider',
  inlayHints: 'vscode.executeInlayHintProvider',
  completion: 'vscode.executeCompletionItemProvider',
} as const

type NavigationAnswer = ReadonlyArray<vscode.Location | vscode.LocationLink> | undefined

/** Typed calls of the commands above. Each returns VS Code's Thenable untouched; callers bound the wait. */
export const execute = {
  navigation: (
    command: (typeof vsCommands)['definition' | 'typeDefinition' | 'declaration' | 'implementation' | 'references'],
    uri: vscode.Uri,
    position: vscode.Position,
  ) => vscode.commands.executeCommand<NavigationAnswer>(command, uri, position),
  hover: (uri: vscode.Uri, position: vscode.Position) =>
    vscode.commands.executeCommand<vscode.Hover[] | undefined>(vsCommands.hover, uri, position),
  signatureHelp: (uri: vscode.Uri, position: vscode.Position) =>
    vscode.commands.executeCommand<vscode.SignatureHelp | undefined>(vsCommands.signatureHelp, uri, position),
  documentSymbols: (uri: vscode.Uri) =>
    vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined>(vsCommands.documentSymbols, uri),
  workspaceSymbols: (query: string) =>
    vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(vsCommands.workspaceSymbols, query),
  prepareCallHierarchy: (uri: vscode.Uri, position: vscode.Position) =>
    vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>(vsCommands.prepareCallHierarchy, uri, position),
  incomingCalls: (item: vscode.CallHierarchyItem) =>
    vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[] | undefined>(vsCommands.incomingCalls, item),
  outgoingCalls: (item: vscode.CallHierarchyItem) =>
    vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[] | undefined>(vsCommands.outgoingCalls, item),
  prepareTypeHierarchy: (uri: vscode.Uri, position: vscode.Position) =>
    vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(vsCommands.prepareTypeHierarchy, uri, position),
  supertypes: (item: vscode.TypeHierarchyItem) =>
    vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(vsCommands.supertypes, item),
  subtypes: (item: vscode.TypeHierarchyItem) =>
    vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(vsCommands.subtypes, item),
  /** `kind` filters by one kind prefix; `itemResolveCount` resolves that many actions' lazy edits. */
  codeActions: (uri: vscode.Uri, range: vscode.Range, kind: string | undefined, itemResolveCount: number) =>
    vscode.commands.executeCommand<Array<vscode.CodeAction | vscode.Command> | undefined>(
      vsCommands.codeActions,
      uri,
      range,
      kind,
      itemResolveCount,
    ),
  formatDocument: (uri: vscode.Uri, options: vscode.FormattingOptions) =>
    vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(vsCommands.formatDocument, uri, options),
  formatRange: (uri: vscode.Uri, range: vscode.Range, options: vscode.FormattingOptions) =>
    vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(vsCommands.formatRange, uri, range, options),
  /** Throws with the provider's reason when the element cannot be renamed. */
  prepareRename: (uri: vscode.Uri, position: vscode.Position) =>
    vscode.commands.executeCommand<{ range: vscode.Range; placeholder: string } | undefined>(vsCommands.prepareRename, uri, position),
  rename: (uri: vscode.Uri, position: vscode.Position, newName: string) =>
    vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(vsCommands.rename, uri, position, newName),
  inlayHints: (uri: vscode.Uri, range: vscode.Range) =>
    vscode.commands.executeCommand<vscode.InlayHint[] | undefined>(vsCommands.inlayHints, uri, range),
  completion: (uri: vscode.Uri, position: vscode.Position, triggerCharacter: string | undefined) =>
    vscode.commands.executeCommand<vscode.CompletionList | undefined>(vsCommands.completion, uri, position, triggerCharacter),
}
