import type { WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver-protocol/node'

import type { ServerStatusParams } from './connection.js'

/** The progress token that stands for a server's own not-yet-quiescent status (rust-analyzer). */
const ownStatusToken = 'codeseam:experimental/serverStatus'

/**
 * What keeps a server busy: its work-done progress, and its own readiness report (`experimental/serverStatus`,
 * sent when the client asks for it) — until that says `quiescent`, the server counts as busy through one more
 * entry in the active progress set, so every wait on progress (readiness, the `indexing` status) waits for it.
 */
export class Busy {
  /** The server's last own status report, if any. */
  lastStatus: ServerStatusParams | undefined

  constructor(
    private readonly activeProgress: Set<string | number>,
    private readonly changed: () => void,
  ) {}

  progress(token: string | number, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
    if (value.kind === 'begin') this.activeProgress.add(token)
    else if (value.kind === 'end') this.activeProgress.delete(token)
    this.changed()
  }

  /** Busy from the handshake until the first quiescent report (the server sends its first one after initialized). */
  expectStatus(): void {
    if (this.lastStatus === undefined) this.activeProgress.add(ownStatusToken)
  }

  status(params: ServerStatusParams): void {
    this.lastStatus = params
    if (params.quiescent) this.activeProgress.delete(ownStatusToken)
    else this.activeProgress.add(ownStatusToken)
    this.changed()
  }
}
