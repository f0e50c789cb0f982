import type { Registry } from './registry.js'

/*
 * The change-mark stage (RFC 0026): one mark of a workspace root's state, made of every provider's own. Equal
 * marks mean no provider noticed a change under the root in between, so an answer computed at the first can
 * serve later pages at the second.
 */

/**
 * Every registered provider's mark for `root` (each takes in the changes it could have noticed by now first),
 * joined; undefined when a provider keeps none or one fails (the caller then computes answers again).
 */
export async function changeMarkAt(registry: Registry, root: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  const registrations = registry.registered()
  if (registrations.length === 0 || registrations.some((r) => r.provider.changeMark === undefined)) return undefined
  const aborted = signal ?? new AbortController().signal
  try {
    const marks = await Promise.all(
      registrations.map(
        async (r) => `${r.info.id}=${await (r.provider.changeMark as NonNullable<typeof r.provider.changeMark>)(root, aborted)}`,
      ),
    )
    return marks.sort().join('\n')
  } catch {
    // No mark is no harm: answers are computed again, as without one.
    return undefined
  }
}
