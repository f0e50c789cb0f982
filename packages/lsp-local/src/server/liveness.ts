import { CancellationTokenSource, RequestType0, type MessageConnection } from 'vscode-languageserver-protocol/node'

/** A probe every server answers at once: an unknown `$/` request gets MethodNotFound or null. */
const livenessProbe = new RequestType0<unknown, unknown>('$/codeseam/ping')

/**
 * A slow request is not a reason to restart; a server that answers nothing within the grace period is.
 * One probe at a time; `dead` is called with the reason when the probe goes unanswered or cannot be sent.
 */
export class Liveness {
  private probing = false

  constructor(
    private readonly connection: MessageConnection,
    private readonly graceMs: number,
    private readonly dead: (reason: string) => void,
  ) {}

  probe(): void {
    if (this.probing) return
    this.probing = true
    const source = new CancellationTokenSource()
    const timer = setTimeout(() => {
      source.cancel()
      this.dead(`it stopped answering: even a liveness probe got no answer within ${this.graceMs} ms`)
    }, this.graceMs)
    let probe: Promise<unknown>
    try {
      probe = this.connection.sendRequest(livenessProbe, source.token)
    } catch (error) {
      // The connection is already closed: nothing can reach this server any more.
      clearTimeout(timer)
      this.probing = false
      source.dispose()
      this.dead(`its connection closed: ${(error as Error).message}`)
      return
    }
    probe
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        clearTimeout(timer)
        this.probing = false
        source.dispose()
      })
  }
}
