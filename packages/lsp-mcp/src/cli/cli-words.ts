import type { ToolOutcome } from '@codeseam/tool-lsp'

import type { ToolCommand } from './flags.js'

/*
 * A tool's messages are written for a model and name its input fields (`target.line`, `matchText`, `dryRun`); on
 * the command line the same things are flags. The CLI says them as flags, and tells a usage error (a wrong or
 * missing argument, by its origin: the tool's `data.issues`) from a query that failed.
 */

/** Whether a failed outcome is the caller's argument mistake (exit 2), not a failed query (exit 1). */
export function isUsageFailure(outcome: ToolOutcome): boolean {
  return !outcome.ok && outcome.error.code === 'INVALID_ARGUMENT' && Array.isArray(outcome.error.data['issues'])
}

/**
 * `text` with the command's input names replaced by its flags: each flag's whole input path (`target.line` →
 * `--line`), and its field name where that is unmistakably one (camelCase: `matchText` → `--match`, `dryRun` →
 * `--dry-run`). The positional argument's path becomes its label (`target.path` → PATH).
 */
export function inCliWords(text: string, command: ToolCommand): string {
  const names = new Map<string, string>()
  for (const spec of command.flags) {
    const last = spec.path[spec.path.length - 1] ?? ''
    if (spec.path.length > 1) names.set(spec.path.join('.'), `--${spec.flag}`)
    if (/[A-Z]/.test(last) && !names.has(last)) names.set(last, `--${spec.flag}`)
  }
  if (command.positional !== undefined && command.positional.path.length > 1)
    names.set(command.positional.path.join('.'), command.positional.label)
  const longestFirst = [...names.keys()].sort((a, b) => b.length - a.length)
  const pattern = new RegExp(`(?<![\\w.-])(${longestFirst.map((n) => n.replace(/[.]/g, '\\.')).join('|')})(?![\\w])`, 'g')
  const flagged = longestFirst.length === 0 ? text : text.replace(pattern, (name) => names.get(name) ?? name)
  // The seam's advice on an ambiguous name names its fields in prose.
  const flag = (path: string) => command.flags.find((spec) => spec.path.join('.') === path)?.flag
  const kind = flag('target.kind')
  const line = flag('target.line')
  const advised =
    kind !== undefined && line !== undefined
      ? flagged.replace('add kind, a dotted container name, or line', `add --${kind}, a dotted container name in --symbol, or --${line}`)
      : flagged
  // An argument issue's line names its field first (`- depth: expected …`): any flag's field, plain words too.
  const fields = new Map(command.flags.map((spec) => [spec.path.join('.'), `--${spec.flag}`]))
  return advised.replace(/^- ([\w.]+):/gm, (line, field: string) => (fields.has(field) ? `- ${fields.get(field)}:` : line))
}

/** What a one-shot command can do about a cold server: asking again starts cold again. */
const coldAdvice =
  'a codeseam command starts its language servers anew each time, so asking again starts cold again; for answers from a loaded project, ask through `codeseam mcp` (it keeps the servers running)'

/**
 * Advice written for a model in a long session, said as it holds for a one-shot command, and the receipt's hint in
 * flags. Exact phrases only: the rest of an answer's text is the code's own and never rewritten.
 */
export function forOneShot(text: string): string {
  return text
    .replace('call again without dryRun to apply', 'run it again without --dry-run to apply')
    .replace(/more: call again with cursor "([^"]+)"/g, 'more: run it again with --cursor $1')
    .replace('pass nextCursor from the previous result unchanged', 'pass --cursor the value the previous answer printed, unchanged')
    .replace(/; ask again once code_status shows it ready/g, `; ${coldAdvice}`)
    .replace(/, so ask again before concluding there are (none there|no [^\n.;]+)/g, `: ${coldAdvice}`)
}
