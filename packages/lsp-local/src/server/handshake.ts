import { pathToUri } from '@codeseam/lsp'
import {
  TextDocumentSyncKind,
  type ConfigurationItem,
  type InitializeParams,
  type ServerCapabilities,
  type WorkspaceFolder,
} from 'vscode-languageserver-protocol/node'

import type { LanguageServerSpec } from './spec.js'

/** What the host says about itself and the server's folders in `initialize`. */
export function initializeParams(spec: LanguageServerSpec): InitializeParams {
  return {
    processId: process.pid,
    clientInfo: { name: 'codeseam-lsp-local', version: '0' },
    rootUri: pathToUri(spec.root),
    rootPath: spec.root,
    workspaceFolders: workspaceFolders(spec),
    capabilities: spec.clientCapabilities,
    initializationOptions: spec.initializationOptions ?? null,
    locale: 'en',
  }
}

/** How documents are synced with a server: incremental only when it asks for it, else full text. */
export function syncKindOf(capabilities: ServerCapabilities): TextDocumentSyncKind {
  const sync = capabilities.textDocumentSync
  const kind = typeof sync === 'number' ? sync : (sync?.change ?? TextDocumentSyncKind.Full)
  return kind === TextDocumentSyncKind.Incremental ? kind : TextDocumentSyncKind.Full
}

/** The server's LSP workspace folders: its root, the other workspace roots it serves, then any nested project folders. */
export function workspaceFolders(spec: LanguageServerSpec): WorkspaceFolder[] {
  return [spec.root, ...(spec.sharedRoots ?? []), ...(spec.folders ?? [])].map((folder) => ({
    uri: pathToUri(folder),
    name: folder.split('/').pop() ?? folder,
  }))
}

/** The answers to one workspace/configuration request: a request without a scope gets the unscoped settings. */
export function configurationAnswers(spec: LanguageServerSpec, items: ReadonlyArray<ConfigurationItem>): unknown[] {
  return items.map(
    (item) => section(item.scopeUri === undefined ? (spec.unscopedSettings ?? spec.settings) : spec.settings, item.section) ?? null,
  )
}

/** Looks a configuration section up: `a.b` is a key or a path (how workspace/configuration is answered). */
export function section(settings: Readonly<Record<string, unknown>>, name: string | undefined): unknown {
  if (name === undefined || name === '') return settings
  if (name in settings) return settings[name]
  let current: unknown = settings
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || !(part in current)) return null
    current = (current as Record<string, unknown>)[part]
  }
  return current
}
