import { afterEach, beforeEach, expect, test, vi } from 'vitest'

import { Deadlines } from '../src/server/deadlines.js'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

test('each deadline expires once, at its time, in order; one timer serves them all', () => {
  const deadlines = new Deadlines()
  const expired: string[] = []
  deadlines.add(300, () => expired.push('c'))
  deadlines.add(100, () => expired.push('a')) // earlier than the armed one: re-arms
  deadlines.add(200, () => expired.push('b'))
  expect(vi.getTimerCount()).toBe(1)
  vi.advanceTimersByTime(99)
  expect(expired).toEqual([])
  vi.advanceTimersByTime(1)
  expect(expired).toEqual(['a'])
  vi.advanceTimersByTime(100)
  expect(expired).toEqual(['a', 'b'])
  vi.advanceTimersByTime(1_000)
  expect(expired).toEqual(['a', 'b', 'c'])
  expect(vi.getTimerCount()).toBe(0)
})

test('a cancelled deadline never expires; later ones still do', () => {
  const deadlines = new Deadlines()
  const expired: string[] = []
  const first = deadlines.add(100, () => expired.push('first'))
  deadlines.add(150, () => expired.push('second'))
  first.cancel()
  first.cancel()
  vi.advanceTimersByTime(1_000)
  expect(expired).toEqual(['second'])
})

test('deadlines added while requests stream in cost no timer calls', () => {
  const deadlines = new Deadlines()
  const set = vi.spyOn(globalThis, 'setTimeout')
  const handles = []
  for (let i = 0; i < 50; i++) {
    handles.push(deadlines.add(30_000, () => {}))
    vi.advanceTimersByTime(1)
    handles.at(-2)?.cancel()
  }
  expect(set).toHaveBeenCalledTimes(1)
  set.mockRestore()
  deadlines.clear()
  expect(vi.getTimerCount()).toBe(0)
})

test('an expiry that throws does not strand the other due deadlines, and the timer stays armed for later ones', () => {
  const deadlines = new Deadlines()
  const expired: string[] = []
  deadlines.add(100, () => {
    expired.push('throws')
    throw new Error('the connection is closed')
  })
  deadlines.add(100, () => expired.push('same time'))
  deadlines.add(500, () => expired.push('later'))
  vi.advanceTimersByTime(100)
  expect(expired).toEqual(['throws', 'same time'])
  vi.advanceTimersByTime(400)
  expect(expired).toEqual(['throws', 'same time', 'later'])
})

test('a deadline beyond what Node timers take waits in steps instead of spinning', () => {
  const deadlines = new Deadlines()
  const set = vi.spyOn(globalThis, 'setTimeout')
  let expired = false
  deadlines.add(3e9, () => (expired = true))
  vi.advanceTimersByTime(1_000)
  expect(set).toHaveBeenCalledTimes(1)
  expect(set.mock.calls[0]?.[1]).toBe(2 ** 31 - 1)
  vi.advanceTimersByTime(3e9)
  expect(expired).toBe(true)
  set.mockRestore()
})
