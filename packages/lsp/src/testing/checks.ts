import { completionCheck, hoverCheck, hoverNonAsciiCheck, inlayHintsCheck, signatureHelpCheck } from './assist-checks.js'
import type { CheckSpec } from './check-kit.js'
import { diagnosticsCheck } from './diagnostic-checks.js'
import { codeActionsCheck, formatCheck, prepareRenameCheck, renameCheck, resolveCodeActionCheck } from './edit-checks.js'
import {
  callHierarchyCheck,
  declarationCheck,
  definitionCheck,
  definitionUtf16Check,
  implementationCheck,
  referencesCheck,
  typeDefinitionCheck,
  typeHierarchyCheck,
} from './navigation-checks.js'
import { documentSymbolsCheck, workspaceSymbolsCheck } from './symbol-checks.js'

export { CheckFailure } from './check-kit.js'
export type { CheckContext, CheckSpec } from './check-kit.js'

// The checks live in files named for what they check; here they are grouped by what they query.

/** Checks that query at a position in a file. */
export const positionChecks = [
  definitionCheck,
  definitionUtf16Check,
  declarationCheck,
  typeDefinitionCheck,
  implementationCheck,
  referencesCheck,
  hoverCheck,
  hoverNonAsciiCheck,
  signatureHelpCheck,
  completionCheck,
  prepareRenameCheck,
  renameCheck,
  formatCheck,
] as const satisfies ReadonlyArray<CheckSpec>

/** Checks of a file: its outline, diagnostics, hints and code actions. */
export const fileChecks = [
  documentSymbolsCheck,
  diagnosticsCheck,
  inlayHintsCheck,
  codeActionsCheck,
  resolveCodeActionCheck,
] as const satisfies ReadonlyArray<CheckSpec>

/** Checks that query across the workspace. */
export const workspaceChecks = [workspaceSymbolsCheck, callHierarchyCheck, typeHierarchyCheck] as const satisfies ReadonlyArray<CheckSpec>

/** Every check the kit runs against a record, in the order it runs them. */
export const kitChecks = [...fileChecks, ...positionChecks, ...workspaceChecks] as const
