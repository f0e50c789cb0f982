/**
 * Language feature providers as VS Code keeps them (`languages.register…Provider`), and the built-in API
 * commands that run them. As VS Code does (goToSymbol.ts, outlineModel.ts, typeHierarchy.ts):
 * - a command for a language with no provider answers empty (`[]`; `undefined` for document symbols);
 * - definition, reference and implementation providers all run, their answers concatenated; one that
 *   throws is logged and contributes nothing, so the command still answers (possibly empty);
 * - document symbols: the same, the answer converted to objects that are both SymbolInformation and
 *   DocumentSymbol (extHostApiCommands' MergedInfo), `undefined` when empty;
 * - type hierarchy: the first matching provider prepares, and the command answers its first item; a
 *   provider that throws while preparing fails the command; supertypes / subtypes go to the provider that
 *   prepared the item, and one that throws answers `[]`.
 * The document is opened first (a missing file fails the command, as VS Code's model reference does).
 */
import type * as vscode from 'vscode'

import { CancellationTokenSource, Location, Position, SymbolInformation, type Uri } from './types.js'

type Selector = string | { readonly language?: string; readonly scheme?: string } | ReadonlyArray<Selector>

type Kind = 'documentSymbols' | 'definition' | 'references' | 'implementation' | 'typeHierarchy'

interface Registered {
  readonly kind: Kind
  readonly selector: Selector
  readonly provider: any
}

/** Built-in commands that exist in every VS Code window; with no language extension they answer empty. */
export const builtinEmptyAnswers: Readonly<Record<string, unknown>> = {
  'vscode.executeDefinitionProvider': [],
  'vscode.executeTypeDefinitionProvider': [],
  'vscode.executeDeclarationProvider': [],
  'vscode.executeImplementationProvider': [],
  'vscode.executeReferenceProvider': [],
  'vscode.executeHoverProvider': [],
  'vscode.executeSignatureHelpProvider': undefined,
  'vscode.executeDocumentSymbolProvider': undefined,
  'vscode.executeWorkspaceSymbolProvider': [],
  'vscode.prepareCallHierarchy': [],
  'vscode.provideIncomingCalls': [],
  'vscode.provideOutgoingCalls': [],
  'vscode.prepareTypeHierarchy': [],
  'vscode.provideSupertypes': [],
  'vscode.provideSubtypes': [],
  'vscode.executeCodeActionProvider': [],
  'vscode.executeFormatDocumentProvider': [],
  'vscode.executeFormatRangeProvider': [],
  'vscode.prepareRename': undefined,
  'vscode.executeDocumentRenameProvider': undefined,
  'vscode.executeInlayHintProvider': [],
  'vscode.executeCompletionItemProvider': { items: [], isIncomplete: false },
}

const registered: Registered[] = []
const preparedBy = new WeakMap<object, any>()

function matches(selector: Selector, document: vscode.TextDocument): boolean {
  if (typeof selector === 'string') return selector === '*' || selector === document.languageId
  if (Array.isArray(selector)) return selector.some((s) => matches(s, document))
  const filter = selector as { language?: string; scheme?: string }
  return (
    (filter.language === undefined || filter.language === document.languageId) &&
    (filter.scheme === undefined || filter.scheme === document.uri.scheme)
  )
}

/** Matching providers, newest first (VS Code orders equal scores by registration, latest first). */
function ordered(kind: Kind, document: vscode.TextDocument): any[] {
  return registered
    .filter((r) => r.kind === kind && matches(r.selector, document))
    .reverse()
    .map((r) => r.provider)
}

export function register(kind: Kind, selector: Selector, provider: unknown): vscode.Disposable {
  const entry: Registered = { kind, selector, provider }
  registered.push(entry)
  return {
    dispose: () => {
      const at = registered.indexOf(entry)
      if (at >= 0) registered.splice(at, 1)
    },
  }
}

export function resetProviders(): void {
  registered.length = 0
}

const token = () => new CancellationTokenSource().token

/** Every matching provider's answer; one that throws contributes nothing (VS Code only logs it). */
async function all<T>(providers: any[], ask: (provider: any) => T | Thenable<T>): Promise<Array<Awaited<T>>> {
  return Promise.all(
    providers.map((provider) =>
      Promise.resolve()
        .then(() => ask(provider))
        .then(undefined, () => undefined),
    ),
  ) as Promise<Array<Awaited<T>>>
}

function mergedInfo(uri: vscode.Uri, symbol: vscode.DocumentSymbol): vscode.SymbolInformation & vscode.DocumentSymbol {
  const location = new Location(uri as Uri, symbol.range as never)
  const merged = new SymbolInformation(symbol.name, symbol.kind, '', location) as unknown as vscode.SymbolInformation &
    vscode.DocumentSymbol
  Object.assign(merged, { detail: symbol.detail, range: symbol.range, selectionRange: symbol.selectionRange })
  merged.children = (symbol.children ?? []).map((child) => mergedInfo(uri, child))
  return merged
}

type Runner = (document: vscode.TextDocument, args: unknown[]) => Promise<unknown>

const position = (args: unknown[]) => {
  const p = args[1] as vscode.Position
  return new Position(p.line, p.character)
}

const locations =
  (kind: 'definition' | 'implementation' | 'references', ask: (provider: any, d: vscode.TextDocument, p: Position) => unknown): Runner =>
  async (document, args) => {
    const answers = await all(ordered(kind, document), (provider) => ask(provider, document, position(args)) as Thenable<unknown>)
    return answers.flatMap((answer) => (answer === undefined || answer === null ? [] : Array.isArray(answer) ? answer : [answer]))
  }

/** The built-in commands that run registered providers, by command name. */
export const providerCommands: Readonly<Record<string, { readonly kind: Kind; readonly run: Runner }>> = {
  'vscode.executeDocumentSymbolProvider': {
    kind: 'documentSymbols',
    run: async (document) => {
      const answers = await all(ordered('documentSymbols', document), (p) => p.provideDocumentSymbols(document, token()))
      const symbols = answers.flatMap((answer) => (answer ?? []) as vscode.DocumentSymbol[])
      return symbols.length === 0 ? undefined : symbols.map((symbol) => mergedInfo(document.uri, symbol))
    },
  },
  'vscode.executeDefinitionProvider': {
    kind: 'definition',
    run: locations('definition', (p, d, at) => p.provideDefinition(d, at, token())),
  },
  'vscode.executeImplementationProvider': {
    kind: 'implementation',
    run: locations('implementation', (p, d, at) => p.provideImplementation(d, at, token())),
  },
  'vscode.executeReferenceProvider': {
    kind: 'references',
    run: locations('references', (p, d, at) => p.provideReferences(d, at, { includeDeclaration: true }, token())),
  },
  'vscode.prepareTypeHierarchy': {
    kind: 'typeHierarchy',
    run: async (document, args) => {
      const [provider] = ordered('typeHierarchy', document)
      if (provider === undefined) return []
      const prepared = await provider.prepareTypeHierarchy(document, position(args), token())
      const first = Array.isArray(prepared) ? prepared[0] : prepared
      if (first === undefined || first === null) return []
      preparedBy.set(first, provider)
      return [first]
    },
  },
}

/** vscode.provideSupertypes / provideSubtypes: the item's own provider; `undefined` for an unknown item. */
export async function relatedTypes(direction: 'supertypes' | 'subtypes', item: vscode.TypeHierarchyItem): Promise<unknown> {
  const provider = preparedBy.get(item)
  if (provider === undefined) return undefined
  const [answer] = await all([provider], (p) =>
    (direction === 'supertypes' ? p.provideTypeHierarchySupertypes : p.provideTypeHierarchySubtypes).call(p, item, token()),
  )
  const items = (answer ?? []) as vscode.TypeHierarchyItem[]
  for (const related of items) preparedBy.set(related, provider)
  return items
}
