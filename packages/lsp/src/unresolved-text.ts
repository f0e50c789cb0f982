/**
 * Text a language's servers resolve no names in (RFC 0018, "unresolved text"): a rename never edits an
 * identifier written there and references never list it, yet the compiler binds it once the text is expanded.
 * Rename integrity reads these spans in the impact set's files for the old name.
 */

/** Half-open offsets into a file's text. */
export type TextSpan = readonly [start: number, end: number]

/** Where a language's text is opaque to its servers, and what to call it in messages. */
export interface LspUnresolvedText {
  /** What the spans are, for messages: `a macro_rules! body`. */
  readonly what: string
  /** The spans in one file's text. */
  readonly spans: (text: string) => ReadonlyArray<TextSpan>
}

const open: Readonly<Record<string, string>> = { '{': '}', '(': ')', '[': ']' }

/**
 * Skips one Rust literal or comment starting at `at`, returning the offset after it, or `at` when none starts
 * there: strings (`"…"`, `b"…"`, raw `r#"…"#`), char literals (`'x'`, `'\n'`; a lifetime `'a` is no literal),
 * line comments and nested block comments. What a token tree's brackets must not be counted inside.
 */
function skipRustToken(text: string, at: number): number {
  const c = text[at]
  if (c === '/' && text[at + 1] === '/') {
    const end = text.indexOf('\n', at)
    return end === -1 ? text.length : end
  }
  if (c === '/' && text[at + 1] === '*') {
    let depth = 0
    let i = at
    while (i < text.length) {
      if (text.startsWith('/*', i)) {
        depth += 1
        i += 2
      } else if (text.startsWith('*/', i)) {
        depth -= 1
        i += 2
        if (depth === 0) return i
      } else i += 1
    }
    return text.length
  }
  const raw = /^b?r(#*)"/.exec(text.slice(at, at + 260))
  if (raw !== null && (at === 0 || !/[\p{XID_Continue}]/u.test(text[at - 1] ?? ''))) {
    const close = `"${raw[1]}`
    const end = text.indexOf(close, at + raw[0].length)
    return end === -1 ? text.length : end + close.length
  }
  if (c === '"') {
    let i = at + 1
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    return Math.min(i + 1, text.length)
  }
  if (c === "'") {
    // `'\…'` or `'x'` (one code point) is a char literal; `'a` followed by anything else is a lifetime or label.
    const escaped = /^'\\(?:u\{[0-9a-fA-F_]+\}|x[0-9a-fA-F]{2}|.)'/u.exec(text.slice(at, at + 14))
    if (escaped !== null) return at + escaped[0].length
    const plain = /^'[^'\\\n]'/u.exec(text.slice(at, at + 4))
    if (plain !== null) return at + plain[0].length
  }
  return at
}

/**
 * The bodies of `macro_rules!` definitions: each definition's outer token tree, brackets balanced. Comments
 * and literals are skipped, so a `macro_rules!` written in a doc comment or a string is none.
 */
export function rustMacroRulesBodies(text: string): ReadonlyArray<TextSpan> {
  const spans: TextSpan[] = []
  const head = /macro_rules!\s*(?:r#)?[\p{XID_Start}_][\p{XID_Continue}]*\s*([{([])/uy
  let i = 0
  while (i < text.length) {
    const skipped = skipRustToken(text, i)
    if (skipped !== i) {
      i = skipped
      continue
    }
    head.lastIndex = i
    const match = text[i] === 'm' && !/[\p{XID_Continue}]/u.test(text[i - 1] ?? '') ? head.exec(text) : null
    if (match === null) {
      i += 1
      continue
    }
    const start = i + match[0].length - 1
    const stack: string[] = []
    let at = start
    while (at < text.length) {
      const past = skipRustToken(text, at)
      if (past !== at) {
        at = past
        continue
      }
      const c = text[at] as string
      if (open[c] !== undefined) stack.push(open[c])
      else if (c === stack[stack.length - 1]) {
        stack.pop()
        if (stack.length === 0) break
      }
      at += 1
    }
    const end = Math.min(at + 1, text.length)
    spans.push([start, end])
    i = end
  }
  return spans
}

/** Rust: rust-analyzer resolves nothing inside a `macro_rules!` body until the macro expands at a call. */
export const rustUnresolvedText: LspUnresolvedText = { what: 'a macro_rules! body', spans: rustMacroRulesBodies }
