/**
 * `a.localeCompare(b)` without ICU for printable ASCII. The first `localeCompare` (or `Intl.Collator`) a process
 * makes loads ICU's collation data: about 3 MB more resident memory for the rest of its life (issue 51;
 * docs/performance.md, "Own RSS"). Names, paths and keys codeseam sorts are nearly always printable ASCII, and
 * there the English (root) collation is a fixed order: punctuation and symbols, digits, then letters with case
 * set aside; only between strings equal but for case does lower case come first. Any other character (and a
 * control character, which the collation ignores) leaves the comparison to `localeCompare`, as before.
 */

/** Printable ASCII below the letters, in the collation's order. */
const beforeLetters = ` _-,;:!?.'"()[]{}@*/\\&#%\`^+<=>|~$0123456789`

/** A printable ASCII character's weight (case set aside), by its code; 0 outside printable ASCII. */
const primary = new Uint8Array(128)
for (let i = 0; i < beforeLetters.length; i++) primary[beforeLetters.charCodeAt(i)] = i + 1
for (let letter = 0; letter < 26; letter++) {
  primary[0x61 + letter] = beforeLetters.length + 1 + letter
  primary[0x41 + letter] = beforeLetters.length + 1 + letter
}

function printableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code > 0x7e) return false
  }
  return true
}

/** Negative, zero or positive as `a.localeCompare(b)` orders `a` and `b` under the English collation. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0
  if (!printableAscii(a) || !printableAscii(b)) return a.localeCompare(b)
  const shorter = Math.min(a.length, b.length)
  for (let i = 0; i < shorter; i++) {
    const difference = (primary[a.charCodeAt(i)] as number) - (primary[b.charCodeAt(i)] as number)
    if (difference !== 0) return difference < 0 ? -1 : 1
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1
  // Equal but for case: the first place where they differ decides, lower case first.
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return x > y ? -1 : 1
  }
  return 0
}
