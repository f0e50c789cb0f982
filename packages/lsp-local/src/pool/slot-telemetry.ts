import { TelemetryAttr, TelemetrySpan, inSpan, telemetryHash, telemetryId, telemetryInstruments } from '@codeseam/lsp'
import type { Attributes, Span } from '@opentelemetry/api'

/**
 * A slot's spans and counters: `codeseam.server.acquire` around each acquisition (`cold_start` when it waited
 * for a process to start, its own or one in progress; `restart` when that start replaces a crashed or
 * stopped process), `codeseam.server.start` around each start, and the serverStarts counter.
 */
export class SlotTelemetry {
  /** A memory restart stopped the server: the next process started replaces it. */
  private replacing = false
  /** Whether the start begun last replaces a crashed or stopped process. */
  private startIsRestart = false
  /** The root's salted hash, made when first needed (never the path). */
  private rootHash: string | undefined

  constructor(
    private readonly root: string,
    private readonly profileId: string,
  ) {}

  /** The slot's profile and root hash (spans, the memory gauge). */
  attributes(): Attributes {
    this.rootHash ??= telemetryHash(this.root)
    return { [TelemetryAttr.profile]: telemetryId(this.profileId), [TelemetryAttr.rootHash]: this.rootHash }
  }

  acquire<T>(run: (span: Span) => Promise<T>): Promise<T> {
    return inSpan(TelemetrySpan.acquire, () => this.attributes(), run)
  }

  /** The acquisition found the server running (warm), or waited for a start (cold). */
  acquired(span: Span, cold: boolean): void {
    if (!span.isRecording()) return
    span.setAttributes(
      cold ? { [TelemetryAttr.cold]: true, [TelemetryAttr.restart]: this.startIsRestart } : { [TelemetryAttr.cold]: false },
    )
  }

  /** The server was stopped to be restarted (memory ceiling). */
  replaced(): void {
    this.replacing = true
  }

  /** One start; `heldServer`: the slot still holds the process it replaces (crashed or stopped). */
  start<T>(heldServer: boolean, run: (restart: boolean) => Promise<T>): Promise<T> {
    const restart = heldServer || this.replacing
    this.startIsRestart = restart
    return inSpan(
      TelemetrySpan.start,
      () => ({ [TelemetryAttr.profile]: telemetryId(this.profileId), [TelemetryAttr.restart]: restart }),
      () => run(restart),
    )
  }

  /** A process was spawned. */
  spawned(restart: boolean): void {
    this.replacing = false
    telemetryInstruments().serverStarts.add(1, { [TelemetryAttr.profile]: telemetryId(this.profileId), [TelemetryAttr.restart]: restart })
  }
}
