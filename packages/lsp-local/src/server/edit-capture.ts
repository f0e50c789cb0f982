import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, WorkspaceEdit } from 'vscode-languageserver-protocol/node'

/**
 * A server's workspace/applyEdit requests: refused, except while a capture runs (an executeCommand whose
 * edits the host wants), when they are collected instead of applied.
 */
export class EditCapture {
  private captured: WorkspaceEdit[] | undefined
  /**
   * Captures run one at a time: a server's workspace/applyEdit does not say which executeCommand it belongs
   * to, so overlapping captures would mix (or lose) each other's edits.
   */
  private queue: Promise<unknown> = Promise.resolve()

  /** The answer to one workspace/applyEdit request. */
  applyEdit(params: ApplyWorkspaceEditParams): ApplyWorkspaceEditResult {
    if (this.captured === undefined) {
      return { applied: false, failureReason: 'codeseam applies edits only through its own edit applier; this edit was refused' }
    }
    this.captured.push(params.edit)
    return { applied: true }
  }

  /** Runs `body` while capturing workspace/applyEdit requests instead of refusing them; one capture at a time. */
  run<T>(body: () => Promise<T>): Promise<{ value: T; edits: WorkspaceEdit[] }> {
    const run = this.queue.then(async () => {
      const edits: WorkspaceEdit[] = []
      this.captured = edits
      try {
        return { value: await body(), edits }
      } finally {
        this.captured = undefined
      }
    })
    this.queue = run.catch(() => undefined)
    return run
  }
}
