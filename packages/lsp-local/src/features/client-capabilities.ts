import { PositionEncodingKind, ResourceOperationKind, type ClientCapabilities } from 'vscode-languageserver-protocol/node'

import { recordFor } from '../languages/index.js'
import type { ServerProfile } from '../profile/profiles.js'

import { featureTable } from './table.js'

/** What every operation relies on: UTF-16 positions, progress, document sync, workspace edits, configuration. */
const shared: ClientCapabilities = {
  general: { positionEncodings: [PositionEncodingKind.UTF16] },
  window: { workDoneProgress: true, showDocument: { support: false } },
  workspace: {
    // Servers apply edits through workspace/applyEdit while a command runs: captured, never written.
    applyEdit: true,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: [ResourceOperationKind.Create, ResourceOperationKind.Rename, ResourceOperationKind.Delete],
      changeAnnotationSupport: { groupsOnLabel: false },
    },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    workspaceFolders: true,
    configuration: true,
  },
  textDocument: { synchronization: { dynamicRegistration: true, didSave: false, willSave: false } },
}

type Json = { readonly [key: string]: unknown }
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Merges capability fragments. Two records asking for the same leaf must agree (the call-hierarchy records
 * share theirs): a conflict is a programming error, caught by the first test that builds the capabilities.
 */
export function mergeCapabilities(into: Json, fragment: Json, at = ''): Json {
  const merged: Record<string, unknown> = { ...into }
  for (const [key, value] of Object.entries(fragment)) {
    const existing = merged[key]
    if (existing === undefined) merged[key] = value
    else if (isObject(existing) && isObject(value)) merged[key] = mergeCapabilities(existing, value, `${at}${key}.`)
    else if (JSON.stringify(existing) !== JSON.stringify(value))
      throw new Error(`client capability ${at}${key} is asked for twice, differently`)
  }
  return merged
}

/** What the host tells servers it understands: the shared part and every operation's fragment, in UTF-16. */
export const clientCapabilities: ClientCapabilities = Object.values(featureTable).reduce<Json>(
  (all, feature) => mergeCapabilities(all, feature.source.client as Json),
  shared as Json,
) as ClientCapabilities

/** Per record: the capabilities with what its server needs beyond every operation's, merged once. */
const withRecord = new Map<string, ClientCapabilities>()

/** What the host tells one profile's server it understands: {@link clientCapabilities}, and its record's own needs. */
export function clientCapabilitiesFor(profile: Pick<ServerProfile, 'id' | 'command' | 'args'>): ClientCapabilities {
  const record = recordFor(profile)
  if (record?.clientCapabilities === undefined) return clientCapabilities
  let merged = withRecord.get(record.id)
  if (merged === undefined) {
    merged = mergeCapabilities(clientCapabilities as Json, record.clientCapabilities as Json) as ClientCapabilities
    withRecord.set(record.id, merged)
  }
  return merged
}
