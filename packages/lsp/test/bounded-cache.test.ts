import { expect, test } from 'vitest'

import { BoundedCache } from '../src/bounded-cache.js'

test('drops the least recently used beyond the entry limit; a get makes an entry the newest', () => {
  const cache = new BoundedCache<string, number>({ entries: 2, size: 100 })
  cache.set('a', 1, 1)
  cache.set('b', 2, 1)
  expect(cache.get('a')).toBe(1)
  cache.set('c', 3, 1)
  expect(cache.get('b')).toBeUndefined()
  expect(cache.get('a')).toBe(1)
  expect(cache.get('c')).toBe(3)
})

test('drops the oldest until the sizes fit; an entry over the whole budget is not kept and replaces nothing', () => {
  const cache = new BoundedCache<string, string>({ entries: 10, size: 10 })
  cache.set('a', 'aaaa', 4)
  cache.set('b', 'bbbb', 4)
  cache.set('c', 'cccc', 4)
  expect(cache.get('a')).toBeUndefined()
  expect(cache.get('b')).toBe('bbbb')
  cache.set('huge', 'x'.repeat(11), 11)
  expect(cache.get('huge')).toBeUndefined()
  expect(cache.get('b')).toBe('bbbb')
  expect(cache.get('c')).toBe('cccc')
  // Replacing an entry counts its new size once.
  cache.set('b', 'bb', 2)
  cache.set('d', 'dddd', 4)
  expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual(['bb', 'cccc', 'dddd'])
})

test('reads its limits at every set, so a caller may lower them', () => {
  const limits = { entries: 3, size: 100 }
  const cache = new BoundedCache<string, number>(limits)
  cache.set('a', 1, 1)
  cache.set('b', 2, 1)
  limits.entries = 1
  cache.set('c', 3, 1)
  expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, 3])
})
