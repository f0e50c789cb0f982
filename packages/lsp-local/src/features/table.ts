import type { LspOperation } from '@codeseam/lsp'

import { codeActions, resolveCodeAction } from './actions.js'
import { completion, hover, inlayHints, signatureHelp } from './assist.js'
import { incomingCalls, outgoingCalls, prepareCallHierarchy } from './call-hierarchy.js'
import { diagnostics } from './diagnostics.js'
import { format, prepareRename, rename } from './edits.js'
import type { Feature, FeatureTable } from './feature.js'
import { declaration, definition, implementation, references, typeDefinition } from './navigation.js'
import { documentSymbols, workspaceSymbols } from './symbols.js'
import { prepareTypeHierarchy, subtypes, supertypes } from './type-hierarchy.js'

/**
 * Every operation's record: its capability check, client capabilities, scope, retry policy, request and
 * translation. `satisfies` makes a new seam operation a compile error here until it has a record.
 */
export const features = {
  definition,
  typeDefinition,
  declaration,
  implementation,
  references,
  hover,
  signatureHelp,
  documentSymbols,
  workspaceSymbols,
  prepareCallHierarchy,
  incomingCalls,
  outgoingCalls,
  prepareTypeHierarchy,
  supertypes,
  subtypes,
  diagnostics,
  inlayHints,
  completion,
  codeActions,
  prepareRename,
  rename,
  format,
  resolveCodeAction,
} satisfies { [O in LspOperation]: Feature<O> }

/** The table, widened to its type: indexing it with a generic operation gives that operation's Feature. */
export const featureTable: FeatureTable = features

/** An operation's record. */
export function featureOf<O extends LspOperation>(operation: O): Feature<O> {
  return featureTable[operation]
}
