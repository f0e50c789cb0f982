import { setFlagsFromString } from 'node:v8'

/**
 * The V8 flags codeseam's own processes run with (issue 51; profiled and measured in docs/performance.md, "How each
 * figure is taken", Own RSS). A heap snapshot of the MCP host after 20 calls held 19 MB of live objects (5 MB of it
 * module source text), while its anonymous resident memory was 49 MB: the rest was heap V8 had grown and kept.
 * - `--semi-space-growth-factor=1`: the young generation stays at its initial size instead of growing to 16 MiB per
 *   semi-space under a steady allocation rate (codeseam allocates in short bursts: a message, a tool's answer).
 * - `--optimize-for-size`: the old generation grows in smaller steps and is given back sooner.
 * `pnpm bench --only generated` on the same machine: the MCP host's RSS while serving, median of the samples on
 * ts-50 / ts-500, 105 / 112 MB before, 91 / 88 MB with the first flag, 79 / 81 MB with both; the MCP layer's own
 * latency per warm query unchanged within the run-to-run noise. Set once, first thing, by the `codeseam` executable
 * — never by the libraries, whose embedding process decides its own heap. Node takes both at run time.
 * Tried and left out (docs/performance.md, "Memory of codeseam's own processes"): no TurboFan (`--max-opt=2`) and
 * `--lite-mode` save 6–7 MB but cost 1.5–3.4 ms a call; `--single-threaded-gc` adds 3 MB.
 */
export const heapFlags: ReadonlyArray<string> = ['--semi-space-growth-factor=1', '--optimize-for-size']

export function keepHeapSmall(): void {
  for (const flag of heapFlags) setFlagsFromString(flag)
}
