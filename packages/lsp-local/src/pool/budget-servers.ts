import type { BudgetServer } from './budget.js'
import type { MemoryWatcher } from './memory.js'
import type { ServerSlot } from './slot.js'

/** A pool's running servers with a sample of the process each runs now, for the budget; stopping one is a memory restart. */
export function budgetServersOf(slots: ReadonlyMap<string, ServerSlot>, memory: MemoryWatcher): BudgetServer[] {
  return [...slots].flatMap(([key, slot]) => {
    const sample = memory.lastSample(key)
    if (sample === undefined || slot.pid === undefined || sample.pid !== slot.pid) return []
    const { busy, lastUsed } = slot
    return [{ key, rssBytes: sample.rssBytes, busy, lastUsed, stop: (reason: string) => slot.restartForMemory(reason) }]
  })
}
