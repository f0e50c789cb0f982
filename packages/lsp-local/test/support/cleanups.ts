import { afterAll, afterEach, expect } from 'vitest'

import { LeakCheck } from '../helpers.js'

export type Cleanup = () => Promise<void> | void

/**
 * The cleanups of a test file's tests: what a test pushes runs after it, last pushed first, and once the file's last
 * test ran no process any of them started is still alive.
 */
export function cleanupsAfterEach(): Cleanup[] {
  const leaks = new LeakCheck()
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    await leaks.record()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  afterAll(async () => {
    expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
  })
  return cleanups
}
