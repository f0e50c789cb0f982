import { afterEach, beforeEach, expect, test, vi } from 'vitest'

import { Quiet } from '../src/quiet.js'

// The host's lookup waits for a pause between questions (RFC 0034): `pause` resolves only once no question has
// been in flight for the given time, a long answer's pages (questions a few milliseconds apart) included.

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

/** Whether `promise` has settled, once the microtasks queued now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(
    () => (done = true),
    () => (done = true),
  )
  await vi.advanceTimersByTimeAsync(0)
  return done
}

test('no question at all: the pause ends the given time after the start', async () => {
  const quiet = new Quiet()
  const pause = quiet.pause(500)
  await vi.advanceTimersByTimeAsync(499)
  expect(await settled(pause)).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  expect(await settled(pause)).toBe(true)
})

test('a question in flight holds the pause, and so do pages asked one after another', async () => {
  const quiet = new Quiet()
  const pause = quiet.pause(500)
  let answer: () => void = () => {}
  const first = quiet.track(() => new Promise<void>((resolve) => (answer = resolve)))
  await vi.advanceTimersByTimeAsync(2_000)
  expect(await settled(pause)).toBe(false)
  answer()
  await first
  // The next page, 10 ms later, answered 300 ms after it was asked.
  await vi.advanceTimersByTimeAsync(10)
  const second = quiet.track(() => new Promise<void>((resolve) => setTimeout(resolve, 300)))
  await vi.advanceTimersByTimeAsync(300)
  await second
  await vi.advanceTimersByTimeAsync(499)
  expect(await settled(pause)).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  expect(await settled(pause)).toBe(true)
})

test('a question that throws or rejects ends as one that answers', async () => {
  const quiet = new Quiet()
  await expect(
    quiet.track(() => {
      throw new Error('thrown')
    }),
  ).rejects.toThrow('thrown')
  await expect(quiet.track(() => Promise.reject(new Error('rejected')))).rejects.toThrow('rejected')
  const pause = quiet.pause(500)
  await vi.advanceTimersByTimeAsync(500)
  expect(await settled(pause)).toBe(true)
})
