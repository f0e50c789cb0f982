import * as nodePath from 'node:path'

import { LspError, resolveFile, resolveTarget, type LspTarget, type ResolvedFile, type ResolvedTarget } from '@codeseam/lsp'
import type { TargetInput, ToolContext } from '@codeseam/tool-lsp'

import { renderReceipt, summarizeReceipt, type MutationReceipt } from '../receipt.js'

/**
 * What every mutating tool shares: files and targets resolved inside the roots the harness allowed
 * (exactly: mutations never take a first match), and the rule that a receipt of a transaction that wrote
 * nothing for a reason (refused, denied, conflict, failed) becomes an LspError carrying that receipt.
 */

/** Resolves a file inside the roots the harness allowed. */
export async function resolveAllowedFile(context: ToolContext, path: string, rootId?: string): Promise<ResolvedFile> {
  const file = await resolveFile(context.lsp, path, rootId)
  const allowed = context.roots.some((r) => nodePath.normalize(r.root) === nodePath.normalize(file.workspace.root))
  if (!allowed) {
    throw new LspError(
      'OUTSIDE_WORKSPACE',
      `"${path}" is not in a workspace this tool may change (${context.roots.map((r) => r.id).join(', ') || 'none'})`,
    )
  }
  return file
}

/** Decoded optional fields may be present as undefined; the seam wants them absent. */
export function cleanTarget(target: TargetInput): LspTarget {
  return Object.fromEntries(Object.entries(target).filter(([, value]) => value !== undefined)) as unknown as LspTarget
}

/** Resolves a target exactly (AMBIGUOUS lists candidates; never the first match). */
export async function resolveExact(context: ToolContext, target: TargetInput, signal: AbortSignal): Promise<ResolvedTarget> {
  await resolveAllowedFile(context, target.path, target.rootId)
  return resolveTarget(context.lsp, cleanTarget(target), { firstMatch: false, signal })
}

/** A receipt that wrote something or was a dry run comes back as the result; any other throws with it attached. */
export function receiptOrThrow(receipt: MutationReceipt, context: ToolContext): ModelReceipt {
  const said = receiptForModel(receipt, context)
  if (receipt.status === 'applied' || receipt.status === 'previewed' || receipt.status === 'unchanged') return said
  const error = receipt.error ?? { code: 'SERVER_ERROR' as const, message: `${receipt.tool} ${receipt.status}` }
  throw new LspError(error.code, `${error.message}\n${renderReceipt(receipt, { includeError: false })}`, {
    data: { ...error.data, receipt: JSON.parse(JSON.stringify(said)) as unknown },
  })
}

/** A receipt as a tool answers it: its workspace named by id (every path in it is relative to that root). */
export type ModelReceipt = Omit<MutationReceipt, 'root'> & { readonly rootId: string }

/** The receipt without the absolute root a server-side path would reveal (HTTP clients elsewhere must not see it). */
export function receiptForModel(receipt: MutationReceipt, context: ToolContext): ModelReceipt {
  const { root, ...rest } = receipt
  const rootId = context.roots.find((r) => nodePath.normalize(r.root) === nodePath.normalize(root))?.id ?? nodePath.basename(root)
  return { ...rest, rootId }
}

/** A receipt as decoded output (optional fields may hold undefined) is the same receipt. */
type ReceiptLike = Omit<ModelReceipt, 'files'> | { readonly status: MutationReceipt['status'] }

/** The one-line summary of a tool result that carries a receipt. */
export function receiptSummary(receipt: ReceiptLike): string {
  return summarizeReceipt(receipt as MutationReceipt)
}

/** The rendered text of a tool result that carries a receipt. */
export function receiptText(receipt: ReceiptLike): string {
  return renderReceipt(receipt as MutationReceipt)
}
