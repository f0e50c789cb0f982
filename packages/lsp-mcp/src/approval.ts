import type { ApprovalCallback, ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '@codeseam/tool-lsp-mutate'

/**
 * How the MCP server decides on mutations. A client that supports elicitation asks its user for every
 * change (showing the diff); with `--allow-edits`, previewable changes go through without asking and the
 * user is asked only for what always needs an explicit yes (deletes, overwrites, server-run commands).
 * Without elicitation the policy is the flags alone: preview only by default, applying needs `--allow-edits`.
 */

/** Asks the client's user; resolves to their answer (accept with content, decline, cancel). */
export type Elicit = (
  params: { message: string; requestedSchema: ElicitSchema },
  signal: AbortSignal,
) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> | undefined }>

/** The flat form schema an elicitation may request (MCP allows only top-level primitive properties). */
export interface ElicitSchema {
  readonly type: 'object'
  readonly properties: Record<string, { type: 'boolean'; title: string; description: string; default: boolean }>
}

/** Options for {@link mcpApprovalPolicy}. */
export interface McpApprovalOptions {
  /** `--allow-edits`: apply previewable changes without asking. */
  readonly allowEdits: boolean
  /** Present when the connected client supports form elicitation. */
  readonly elicit?: Elicit
}

/** Longest diff shown in an approval prompt; the rest is summarized. */
export const maxPromptDiffChars = 6_000

const approveAllSchema: ElicitSchema = {
  type: 'object',
  properties: {
    approveAll: {
      type: 'boolean',
      title: 'Approve all',
      description: 'Also apply every later change of this session that has a full preview, without asking.',
      default: false,
    },
  },
}

/** The text a user sees when asked to approve a change: what, where, why it needs a yes, and the diff. */
export function approvalPrompt(request: ApprovalRequest): string {
  const { counts } = request.preview
  const lines = [
    `${request.tool}: ${request.summary}`,
    `${counts.files} file(s), ${counts.edits} edit(s), +${counts.linesAdded} −${counts.linesRemoved} lines in ${request.root}`,
  ]
  if (request.explicitReasons.length > 0) lines.push(`needs your explicit approval: ${request.explicitReasons.join('; ')}`)
  for (const op of request.preview.resourceOperations)
    lines.push(`${op.type} ${op.path}${op.newPath === undefined ? '' : ` → ${op.newPath}`}`)
  const diff = request.preview.files
    .map((f) => f.diff)
    .filter((d) => d.length > 0)
    .join('\n')
  if (diff.length > 0) {
    lines.push(
      '',
      diff.length > maxPromptDiffChars ? `${diff.slice(0, maxPromptDiffChars)}\n[diff cut at ${maxPromptDiffChars} characters]` : diff,
    )
  }
  return lines.join('\n')
}

function elicitingCallback(elicit: Elicit): ApprovalCallback {
  return async (request, signal): Promise<ApprovalDecision> => {
    const answer = await elicit({ message: approvalPrompt(request), requestedSchema: approveAllSchema }, signal)
    if (answer.action === 'accept') return answer.content?.approveAll === true ? 'approveAll' : 'approve'
    return {
      decision: 'deny',
      reason: answer.action === 'decline' ? 'the user declined the change' : 'the user dismissed the approval prompt',
    }
  }
}

const previewOnly: ApprovalCallback = () => ({
  decision: 'deny',
  reason:
    'this codeseam MCP server runs in preview-only mode (the client cannot ask its user through elicitation): the preview above shows the change; restart the server with --allow-edits to apply changes',
})

/** The approval policy the mutating tools run under in an MCP session. */
export function mcpApprovalPolicy(options: McpApprovalOptions): ApprovalPolicy {
  if (options.elicit !== undefined) return { autoApprove: options.allowEdits, approve: elicitingCallback(options.elicit) }
  if (options.allowEdits) return { autoApprove: true }
  return { autoApprove: false, approve: previewOnly }
}

/**
 * A policy decided later: the MCP server learns whether its client supports elicitation only at initialize,
 * after the mutating tools were bound to their session, so the session asks `current()` at decision time.
 */
export function deferredApprovalPolicy(current: () => ApprovalPolicy): ApprovalPolicy {
  return {
    get autoApprove() {
      return current().autoApprove === true
    },
    approve(request, signal) {
      const approve = current().approve
      if (approve !== undefined) return approve(request, signal)
      return { decision: 'deny', reason: 'this change needs explicit approval and the client cannot ask its user (no elicitation support)' }
    },
  }
}
