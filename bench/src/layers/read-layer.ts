import type { ReadQuery } from '../read-mix.js'
import type { Layer } from '../report.js'

/** One layer of the stack as the benchmark drives it: the same queries, its own output shape. */
export interface ReadLayer {
  readonly layer: Layer
  /** Answers one query with whatever this layer hands its caller. */
  run(query: ReadQuery): Promise<unknown>
  /** Whether the answer is correct for the query (every timed answer is checked). */
  verify(query: ReadQuery, answer: unknown): boolean
  /** Locations in a references answer, before any budgeting. */
  locationCount(answer: unknown): number
  /** Whether the layer cut the answer short. */
  truncated(answer: unknown): boolean
  /** Bytes the caller receives. */
  outputBytes(answer: unknown): number
  /** Process ids of the language servers (and helper processes) this layer runs, for RSS. */
  pids(): ReadonlyArray<number>
  /** Whether the layer runs in this process (its heap counts as host RSS). */
  readonly inProcess: boolean
  stop(): Promise<void>
}

/** Byte length of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
}

/** Workspace-relative path of a file: URI or absolute path, with forward slashes. */
export function relativeTo(root: string, uriOrPath: string): string {
  const path = uriOrPath.startsWith('file://') ? decodeURIComponent(new URL(uriOrPath).pathname) : uriOrPath
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path
}
