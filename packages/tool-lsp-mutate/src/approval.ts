import type { LspWorkspaceEdit } from '@codeseam/lsp'

import type { ApprovalRecord, DiagnosticDelta, MutationPreview } from './receipt.js'

/**
 * The approval model. A harness supplies the policy: `autoApprove` (previewable changes go through without
 * asking), and/or an `approve` callback that sees the preview and answers approve, approveAll (this and every
 * later previewable change of the session) or deny. Some changes always need an explicit yes from the
 * callback, whatever the flags: resource-destroying operations (deletes, overwrites), effects the preview
 * cannot show (a command that ran on the server), and change annotations marked needsConfirmation. Without a
 * callback such changes are denied; without any policy every change is denied.
 */

/** What the harness answers. */
export type ApprovalDecision = 'approve' | 'approveAll' | 'deny' | { readonly decision: 'deny'; readonly reason: string }

/** What the harness is asked. */
export interface ApprovalRequest {
  readonly transactionId: string
  readonly tool: string
  readonly root: string
  /** One line: what the change is. */
  readonly summary: string
  readonly preview: MutationPreview
  /** Non-empty when this change needs an explicit yes (approveAll and autoApprove do not cover it). */
  readonly explicitReasons: ReadonlyArray<string>
  /** The diagnostics the change would introduce, checked in the servers' memory before asking (RFC 0018). */
  readonly predicted?: DiagnosticDelta
}

/** The harness's approval callback. */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>

/** The approval policy of a session. */
export interface ApprovalPolicy {
  /** Approve previewable changes without asking. */
  readonly autoApprove?: boolean
  readonly approve?: ApprovalCallback
}

/** Why a change needs an explicit yes; empty when autoApprove / approve-all may cover it. */
export function explicitApprovalReasons(edit: LspWorkspaceEdit, preview: MutationPreview): string[] {
  const reasons: string[] = []
  for (const op of preview.resourceOperations) {
    if (op.type === 'delete') reasons.push(`deletes ${op.path}`)
    else if (op.destructive)
      reasons.push(`${op.type === 'create' ? 'creates' : 'renames onto'} ${op.newPath ?? op.path} and may overwrite it`)
  }
  reasons.push(...preview.unpreviewable)
  const confirm = new Set<string>()
  const needs = (id: string | undefined) => id !== undefined && edit.annotations?.[id]?.needsConfirmation === true
  for (const op of edit.operations) {
    if (op.type === 'edit') {
      for (const e of op.edits) if (needs(e.annotationId)) confirm.add(e.annotationId!)
    } else if (needs(op.annotationId)) confirm.add(op.annotationId!)
  }
  for (const id of confirm) reasons.push(`the server marks "${edit.annotations?.[id]?.label ?? id}" as needing confirmation`)
  return reasons
}

/** Session state of approvals: remembers "approve all". */
export class ApprovalGate {
  private approveAll = false

  constructor(private readonly policy: ApprovalPolicy) {}

  /** Whether an earlier "approve all" covers later previewable changes. */
  get approveAllActive(): boolean {
    return this.approveAll
  }

  /** Forgets "approve all" (e.g. when the user says so). */
  resetApproveAll(): void {
    this.approveAll = false
  }

  /** Whether deciding on a change with these explicit reasons will show it to the callback (not auto-approved). */
  asksFor(explicitReasons: ReadonlyArray<string>): boolean {
    if (explicitReasons.length === 0 && (this.policy.autoApprove === true || this.approveAll)) return false
    return this.policy.approve !== undefined
  }

  /** Decides on one change. A callback that throws is a denial, with its message as the reason. */
  async decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalRecord> {
    const reasons = request.explicitReasons
    const explicitRequired = reasons.length > 0
    if (!explicitRequired && this.policy.autoApprove === true) return { decision: 'auto', explicitRequired, reasons }
    if (!explicitRequired && this.approveAll) return { decision: 'session', explicitRequired, reasons }
    const callback = this.policy.approve
    if (callback === undefined) {
      return {
        decision: 'denied',
        explicitRequired,
        reasons,
        deniedReason: explicitRequired
          ? 'this change needs explicit approval and the harness has no approval callback'
          : 'no approval policy: the harness must pass autoApprove or an approve callback',
      }
    }
    let answer: ApprovalDecision
    try {
      answer = await callback(request, signal)
    } catch (error) {
      return { decision: 'denied', explicitRequired, reasons, deniedReason: `the approval callback failed: ${(error as Error).message}` }
    }
    if (answer === 'approve') return { decision: 'approved', explicitRequired, reasons }
    if (answer === 'approveAll') {
      this.approveAll = true
      return { decision: 'approvedAll', explicitRequired, reasons }
    }
    return {
      decision: 'denied',
      explicitRequired,
      reasons,
      ...(typeof answer === 'object' ? { deniedReason: answer.reason } : {}),
    }
  }
}
