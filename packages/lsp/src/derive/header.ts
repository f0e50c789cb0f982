// Reading a type declaration's header, language-neutrally: the bases a class names after its name, in the
// forms TypeScript, Python, C++ (and Java, C#, Kotlin, Swift) write them. Text only: resolving the names is
// the server's work (definition requests), so this never guesses what a name means.

/** One declared base: the name as written (qualified, without type arguments) and where its last part is. */
export interface BaseEntry {
  /** `Base`, `abc.ABC`, `ns::Base`, `Generic` — type arguments and call arguments left out. */
  readonly name: string
  /** Offsets of the whole qualified name. */
  readonly start: number
  readonly end: number
  /** Offset of the name's last identifier: the place to ask the server what it means. */
  readonly lastStart: number
  /** The entry is a call (`Mixin(Base)`, `with_metaclass(M, B)`): its value is computed, not declared. */
  readonly call: boolean
}

const identStart = /[A-Za-z_$\u00C0-\uFFFF]/
const identPart = /[A-Za-z0-9_$\u00C0-\uFFFF]/
/** Words that qualify a base without naming it (C++ access and virtual inheritance, Kotlin/Swift modifiers). */
const qualifiers = new Set(['public', 'private', 'protected', 'virtual', 'internal'])
/** How far past the name a header may run before its body opens. */
const maxHeader = 4000

/** Skips whitespace and comments (line comments with // or #, block comments) from `i`. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (text.startsWith('//', i) || text[i] === '#') {
      while (i < text.length && text[i] !== '\n') i++
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2)
      i = end === -1 ? text.length : end + 2
    } else {
      return i
    }
  }
}

const closers: Record<string, string> = { '<': '>', '(': ')', '[': ']', '{': '}' }

/** The offset just past the bracket matching the one at `i` (nested brackets of every kind counted). */
function skipBalanced(text: string, i: number, limit: number): number {
  const stack: string[] = []
  for (let j = i; j < limit; j++) {
    const ch = text[j]!
    if (ch === '=' && text[j + 1] === '>') {
      j++
      continue
    }
    if (ch in closers) stack.push(closers[ch]!)
    else if (ch === stack[stack.length - 1]) {
      stack.pop()
      if (stack.length === 0) return j + 1
    } else if ((ch === ')' || ch === ']' || ch === '}') && stack.includes(ch)) {
      // An unbalanced `<` (a comparison) inside: drop it.
      while (stack.length > 0 && stack[stack.length - 1] !== ch) stack.pop()
      stack.pop()
      if (stack.length === 0) return j + 1
    }
  }
  return limit
}

/** Splits `[start, end)` at commas outside brackets. */
function splitTopLevel(text: string, start: number, end: number): Array<[number, number]> {
  const parts: Array<[number, number]> = []
  let from = start
  for (let j = start; j < end; j++) {
    const ch = text[j]!
    if (ch in closers && ch !== '{') j = skipBalanced(text, j, end) - 1
    else if (ch === ',') {
      parts.push([from, j])
      from = j + 1
    }
  }
  parts.push([from, end])
  return parts
}

function readIdent(text: string, i: number): number {
  if (i >= text.length || !identStart.test(text[i]!)) return i
  let j = i + 1
  while (j < text.length && identPart.test(text[j]!)) j++
  return j
}

/** The qualified name an entry starts with (after qualifiers), or undefined for anything else. */
function entryName(text: string, start: number, end: number, python: boolean): BaseEntry | undefined {
  let i = skipTrivia(text, start)
  if (i >= end) return undefined
  // Python: `*bases`, `**kwargs` and keyword arguments (`metaclass=M`) name no base.
  if (python && (text[i] === '*' || /^[A-Za-z_]\w*\s*=(?!=)/.test(text.slice(i, end)))) return undefined
  for (;;) {
    const wordEnd = readIdent(text, i)
    if (wordEnd > i && qualifiers.has(text.slice(i, wordEnd)) && /\s/.test(text[wordEnd] ?? '')) i = skipTrivia(text, wordEnd)
    else break
  }
  const nameStart = i
  if (text.startsWith('::', i)) i += 2
  let lastStart = i
  let identEnd = readIdent(text, i)
  if (identEnd === i) return undefined
  i = identEnd
  for (;;) {
    const sep = text.startsWith('::', i) ? 2 : text[i] === '.' ? 1 : 0
    if (sep === 0) break
    const next = readIdent(text, i + sep)
    if (next === i + sep) break
    lastStart = i + sep
    identEnd = next
    i = next
  }
  const after = skipTrivia(text, identEnd)
  return { name: text.slice(nameStart, identEnd), start: nameStart, end: identEnd, lastStart, call: after < end && text[after] === '(' }
}

/**
 * The bases declared in the header that follows a type's name (`nameEnd`: the offset just past the name):
 * `(Base, Mixin)` (Python), `<T> extends A<T> implements I, J` (TypeScript, Java), `: public B, virtual C`
 * (C++, C#). Keyword arguments, unpacking and anything that is not a name are left out.
 */
export function baseEntries(text: string, nameEnd: number): BaseEntry[] {
  const limit = Math.min(text.length, nameEnd + maxHeader)
  let i = skipTrivia(text, nameEnd)
  // Type parameters or a specialization's arguments right after the name (`<T>`; Python 3.12 `[T]`).
  if (text[i] === '<' || text[i] === '[') i = skipTrivia(text, skipBalanced(text, i, limit))
  if (text[i] === '(') {
    const close = skipBalanced(text, i, limit) - 1
    return splitTopLevel(text, i + 1, close).flatMap(([s, e]) => entryName(text, s, e, true) ?? [])
  }
  // Keyword and colon forms end where the body opens (`{`); a header that ends any other way (a forward
  // declaration, a Python `class C:` with no bases, a form this reader does not know) declares no base here.
  const lists: Array<[number, number]> = []
  let listStart: number | undefined
  const closeList = (end: number) => {
    if (listStart !== undefined) lists.push([listStart, end])
    listStart = undefined
  }
  let colons = 0
  while (i < limit) {
    const ch = text[i]!
    if (ch === '{') {
      closeList(i)
      return lists.flatMap(([start, end]) => splitTopLevel(text, start, end).flatMap(([s, e]) => entryName(text, s, e, false) ?? []))
    }
    if (ch === ';' || ch === '=') return []
    if (ch === ':' && text[i + 1] !== ':' && text[i - 1] !== ':') {
      // One colon opens a base list (C++, C#, Kotlin, Swift); a second one is not a header this reader knows.
      if (++colons > 1) return []
      closeList(i)
      listStart = i + 1
      i++
    } else if (ch === '<' || ch === '(' || ch === '[') {
      i = skipBalanced(text, i, limit)
    } else if (identStart.test(ch) && (i === 0 || !identPart.test(text[i - 1]!))) {
      const end = readIdent(text, i)
      const word = text.slice(i, end)
      if (word === 'extends' || word === 'implements') {
        closeList(i)
        listStart = end
      } else if (word === 'where' || word === 'def' || word === 'pass' || word === 'return') {
        return []
      }
      i = end
    } else if (ch === '/' || ch === '#') {
      const next = skipTrivia(text, i)
      i = next === i ? i + 1 : next
    } else {
      i++
    }
  }
  return []
}

/**
 * Whether the header after a type's name ends the statement at once: a declaration without a body, bases
 * or anything else (`class Circle;`, `template <> struct Box<bool>;`, C and C++ forward declarations). The
 * type's bases are in its definition, elsewhere.
 */
export function declarationOnly(text: string, nameEnd: number): boolean {
  let i = skipTrivia(text, nameEnd)
  if (text[i] === '<') i = skipTrivia(text, skipBalanced(text, i, Math.min(text.length, nameEnd + maxHeader)))
  return text[i] === ';'
}

/**
 * For a declaration that aliases a type (`type X = Base`, `using X = Base<int>`, `X = Base`, `X: TypeAlias =
 * Base`), the aliased name; `typedef Base X;` too, given the text before the name. Undefined for anything else.
 */
export function aliasedName(text: string, nameStart: number, nameEnd: number, lineStart: number): BaseEntry | undefined {
  const limit = Math.min(text.length, nameEnd + maxHeader)
  let i = skipTrivia(text, nameEnd)
  if (text[i] === '<') i = skipTrivia(text, skipBalanced(text, i, limit))
  // A Python annotation before the `=` (`X: TypeAlias = Base`), on the same line.
  if (text[i] === ':' && text[i + 1] !== ':') {
    const eq = text.indexOf('=', i)
    const eol = text.indexOf('\n', i)
    if (eq !== -1 && (eol === -1 || eq < eol)) i = eq
  }
  if (text[i] === '=' && text[i + 1] !== '=' && text[i + 1] !== '>') {
    const entry = entryName(text, i + 1, limit, false)
    return entry !== undefined && !entry.call && endsStatement(text, entry.end, limit) ? entry : undefined
  }
  const before = text.slice(lineStart, nameStart)
  const typedef = /\btypedef\s+(?:(?:struct|class|typename|const)\s+)*/.exec(before)
  if (typedef !== null) {
    const entry = entryName(text, lineStart + typedef.index + typedef[0].length, nameStart, false)
    return entry !== undefined && !entry.call ? entry : undefined
  }
  return undefined
}

/** Whether the aliased name is all the statement holds (`= Base<T>;`), not part of a larger type (`= A & B`). */
function endsStatement(text: string, end: number, limit: number): boolean {
  let i = end
  while (i < limit && (text[i] === ' ' || text[i] === '\t')) i++
  if (text[i] === '<' || text[i] === '[') i = skipBalanced(text, i, limit)
  const eol = text.indexOf('\n', i)
  const rest = text.slice(i, eol === -1 ? limit : eol).trim()
  return rest === '' || rest.startsWith(';') || rest.startsWith('//') || rest.startsWith('#')
}
