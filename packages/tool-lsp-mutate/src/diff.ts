/**
 * Line diffs for previews: Myers' O(ND) shortest edit script over lines, formatted as a unified diff
 * (`diff -u` / `git diff` shape) that patch tools and people read.
 */

/** One line of an edit script. */
export interface DiffLine {
  readonly type: 'context' | 'removed' | 'added'
  readonly text: string
}

interface SplitText {
  readonly lines: ReadonlyArray<string>
  /** The last line has no terminating newline. */
  readonly noFinalNewline: boolean
}

function splitLines(text: string): SplitText {
  if (text.length === 0) return { lines: [], noFinalNewline: false }
  if (text.endsWith('\n')) return { lines: text.slice(0, -1).split('\n'), noFinalNewline: false }
  return { lines: text.split('\n'), noFinalNewline: true }
}

/** Past this many differences the script is one block replacement instead (bounded memory on huge rewrites). */
const maxEditDistance = 4000

/** The shortest edit script turning `a` into `b` (lines compared exactly). */
export function diffLines(a: ReadonlyArray<string>, b: ReadonlyArray<string>): DiffLine[] {
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
  const head: DiffLine[] = a.slice(0, prefix).map((text) => ({ type: 'context', text }))
  const tail: DiffLine[] = a.slice(a.length - suffix).map((text) => ({ type: 'context', text }))
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix))
  return [...head, ...middle, ...tail]
}

function myers(a: ReadonlyArray<string>, b: ReadonlyArray<string>): DiffLine[] {
  const n = a.length
  const m = b.length
  if (n === 0) return b.map((text) => ({ type: 'added', text }))
  if (m === 0) return a.map((text) => ({ type: 'removed', text }))
  const max = Math.min(n + m, maxEditDistance)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d)
    }
  }
  // Too different to diff cheaply: one honest block replacement.
  return [...a.map((text): DiffLine => ({ type: 'removed', text })), ...b.map((text): DiffLine => ({ type: 'added', text }))]
}

function backtrack(
  trace: ReadonlyArray<Int32Array>,
  a: ReadonlyArray<string>,
  b: ReadonlyArray<string>,
  offset: number,
  dEnd: number,
): DiffLine[] {
  const out: DiffLine[] = []
  let x = a.length
  let y = b.length
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!
    const k = x - y
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1
    const prevX = v[offset + prevK]!
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      out.push({ type: 'context', text: a[--x]! })
      y--
    }
    if (x === prevX) out.push({ type: 'added', text: b[--y]! })
    else out.push({ type: 'removed', text: a[--x]! })
  }
  while (x > 0 && y > 0) {
    out.push({ type: 'context', text: a[--x]! })
    y--
  }
  return out.reverse()
}

/** Line counts of a diff. */
export interface DiffStats {
  readonly added: number
  readonly removed: number
}

/** A unified diff of one file and its line counts. */
export interface UnifiedDiff extends DiffStats {
  /** Empty when the texts are equal. */
  readonly text: string
}

/** Options for {@link unifiedDiff}. */
export interface UnifiedDiffOptions {
  /** Lines of context around each change (default 3). */
  readonly context?: number
  /** `null` old text: the file is created (`--- /dev/null`). */
  readonly oldLabel?: string
  /** `null` new text: the file is deleted (`+++ /dev/null`). */
  readonly newLabel?: string
}

/**
 * A unified diff from `oldText` to `newText`. `null` stands for a file that does not exist (created or
 * deleted). Labels default to `a/<path>` and `b/<path>`.
 */
export function unifiedDiff(path: string, oldText: string | null, newText: string | null, options: UnifiedDiffOptions = {}): UnifiedDiff {
  const context = options.context ?? 3
  const before = splitLines(oldText ?? '')
  const after = splitLines(newText ?? '')
  if (oldText === newText) return { text: '', added: 0, removed: 0 }
  const script = diffLines(before.lines, after.lines)
  // Annotate each script line with its old/new line numbers and whether it is a file's final unterminated line.
  type Numbered = DiffLine & { oldLine: number; newLine: number; noNewline: boolean }
  const numbered: Numbered[] = []
  let oldLine = 0
  let newLine = 0
  for (const line of script) {
    const isOld = line.type !== 'added'
    const isNew = line.type !== 'removed'
    if (isOld) oldLine++
    if (isNew) newLine++
    const lastOld = isOld && oldLine === before.lines.length && before.noFinalNewline
    const lastNew = isNew && newLine === after.lines.length && after.noFinalNewline
    if (line.type === 'context' && lastOld !== lastNew) {
      // The same text but only one side ends without a newline: a change of that line's terminator.
      numbered.push({ type: 'removed', text: line.text, oldLine, newLine: newLine - 1, noNewline: lastOld })
      numbered.push({ type: 'added', text: line.text, oldLine, newLine, noNewline: lastNew })
      continue
    }
    numbered.push({ ...line, oldLine, newLine, noNewline: line.type === 'added' ? lastNew : lastOld })
  }
  let added = 0
  let removed = 0
  const hunks: string[] = []
  let index = 0
  while (index < numbered.length) {
    while (index < numbered.length && numbered[index]!.type === 'context') index++
    if (index >= numbered.length) break
    const start = Math.max(0, index - context)
    let end = index
    // Extend the hunk while the next change is within 2 × context lines.
    for (;;) {
      while (end < numbered.length && numbered[end]!.type !== 'context') end++
      let gap = end
      while (gap < numbered.length && numbered[gap]!.type === 'context') gap++
      if (gap < numbered.length && gap - end <= 2 * context) end = gap
      else break
    }
    const stop = Math.min(numbered.length, end + context)
    const lines = numbered.slice(start, stop)
    const oldCount = lines.filter((l) => l.type !== 'added').length
    const newCount = lines.filter((l) => l.type !== 'removed').length
    const first = lines[0]!
    const oldStart = first.type === 'added' ? first.oldLine + 1 : first.oldLine
    const newStart = first.type === 'removed' ? first.newLine + 1 : first.newLine
    const body: string[] = [
      `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`,
    ]
    for (const line of lines) {
      if (line.type === 'added') added++
      if (line.type === 'removed') removed++
      body.push(`${line.type === 'added' ? '+' : line.type === 'removed' ? '-' : ' '}${line.text}`)
      if (line.noNewline) body.push('\\ No newline at end of file')
    }
    hunks.push(body.join('\n'))
    index = stop
  }
  const header = [
    `--- ${oldText === null ? '/dev/null' : (options.oldLabel ?? `a/${path}`)}`,
    `+++ ${newText === null ? '/dev/null' : (options.newLabel ?? `b/${path}`)}`,
  ]
  return { text: `${[...header, ...hunks].join('\n')}\n`, added, removed }
}

/** Applies a unified diff produced by {@link unifiedDiff} to `oldText` (used to prove previews are exact). */
export function applyUnifiedDiff(oldText: string, diff: string): string {
  if (diff === '') return oldText
  const before = splitLines(oldText)
  const out: { text: string; unterminated: boolean }[] = []
  let cursor = 0
  const copyOld = () => {
    out.push({ text: before.lines[cursor]!, unterminated: cursor === before.lines.length - 1 && before.noFinalNewline })
    cursor++
  }
  let last: '+' | '-' | ' ' | undefined
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@/.exec(line)
    if (hunk) {
      const start = Number(hunk[1]) - (Number(hunk[2]) === 0 ? 0 : 1)
      while (cursor < start) copyOld()
      continue
    }
    if (line === '\\ No newline at end of file') {
      if (last === '+' || last === ' ') out[out.length - 1]!.unterminated = true
      continue
    }
    if (line.startsWith('+')) {
      out.push({ text: line.slice(1), unterminated: false })
      last = '+'
    } else if (line.startsWith('-')) {
      cursor++
      last = '-'
    } else if (line.startsWith(' ')) {
      copyOld()
      last = ' '
    }
  }
  while (cursor < before.lines.length) copyOld()
  return out.map((l) => (l.unterminated ? l.text : `${l.text}\n`)).join('')
}
