import { expect, test } from 'vitest'

import { compareText } from '../src/compare-text.js'

/** The collation compareText stands in for, with the locale named so the test does not depend on the machine's. */
const collator = new Intl.Collator('en')
const sign = (n: number) => Math.sign(n)

const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i))

test('every pair of printable ASCII strings up to two characters is ordered as the English collation orders it', () => {
  const strings = ['', ...printable, ...printable.flatMap((a) => printable.map((b) => a + b))]
  let compared = 0
  const wrong: string[] = []
  for (const a of strings.slice(0, 200)) {
    for (const b of strings) {
      compared++
      if (sign(compareText(a, b)) !== sign(collator.compare(a, b))) wrong.push(`${JSON.stringify(a)} ${JSON.stringify(b)}`)
    }
  }
  expect(compared).toBeGreaterThan(1_000_000)
  expect(wrong.slice(0, 10)).toEqual([])
})

test('paths, names and keys as codeseam sorts them: the same order as the collation', () => {
  // A seeded generator: the same strings every run.
  let seed = 51
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const alphabet = 'aAbBzZ09_-./ @$~'
  const word = () => Array.from({ length: 1 + Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
  const words = Array.from({ length: 3000 }, word)
  words.push(
    'src/Zeta.ts',
    'src/alpha.ts',
    'src/Alpha.ts',
    'src/alpha-b.ts',
    'src/alpha_b.ts',
    'src/alpha.b.ts',
    'code_navigate',
    'code_hover',
  )
  const wrong = words.flatMap((a, i) => {
    const b = words[(i * 7 + 3) % words.length] as string
    return sign(compareText(a, b)) === sign(collator.compare(a, b)) ? [] : [`${a} ${b}`]
  })
  expect(wrong).toEqual([])
  expect([...words].sort(compareText)).toEqual([...words].sort(collator.compare))
})

test('text beyond printable ASCII is left to localeCompare', () => {
  for (const [a, b] of [
    ['é', 'f'],
    ['résumé', 'resume'],
    ['a\tb', 'ab'],
    ['Ω', 'z'],
  ] as const) {
    expect(sign(compareText(a, b))).toBe(sign(a.localeCompare(b)))
    expect(sign(compareText(b, a))).toBe(sign(b.localeCompare(a)))
  }
})
