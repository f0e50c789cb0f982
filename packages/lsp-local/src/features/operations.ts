import {
  LspError,
  type LspOperation,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspRequestFor,
} from '@codeseam/lsp'

import type { OperationContext } from './context.js'
import { featureOf } from './table.js'

/** Runs one file- or item-scoped operation against a ready server with a synced document, by its record. */
export async function runOperation(request: LspProviderRequest<LspQueryRequest>, ctx: OperationContext): Promise<LspQueryResult> {
  return run(request.operation, request as LspProviderRequest<LspRequestFor<typeof request.operation>>, ctx)
}

async function run<O extends LspOperation>(
  operation: O,
  request: LspProviderRequest<LspRequestFor<O>>,
  ctx: OperationContext,
): Promise<LspQueryResult> {
  const { source } = featureOf(operation)
  // Workspace symbols and diagnostics are the provider's own code (they span servers or wait on pushes).
  if (typeof source.run !== 'function') throw new LspError('INVALID_ARGUMENT', `${operation} is not a file operation`)
  return source.run(request, ctx)
}
