import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { ToolOutcome } from '@codeseam/tool-lsp'

/**
 * How the CLI shows results to a person: the tool's own rendered text, with every `path:line[:col]` made
 * clickable from the current directory (terminals and editors open `path:line:col` relative to where the
 * command ran) and colored only when the stream is a terminal. `--json` prints the outcome envelope as is.
 */

/** Where output goes and whether it may use color. */
export interface OutputStream {
  write(text: string): unknown
  readonly isTTY?: boolean
}

const style = {
  location: (s: string) => `\x1b[36m${s}\x1b[39m`,
  error: (s: string) => `\x1b[31m${s}\x1b[39m`,
  dim: (s: string) => `\x1b[2m${s}\x1b[22m`,
} as const

/** Whether to color a stream: `--color` / `--no-color` win, then NO_COLOR / FORCE_COLOR, then "is it a terminal". */
export function useColor(stream: OutputStream, flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true
}

const locationPattern = /(^|[\s(])((?:[\w@.+-]+\/)*[\w@.+-]+\.[\w]+):(\d+)(?::(\d+))?/gm

/**
 * Rewrites workspace-relative `path:line:col` references so they resolve from `cwd`, and colors them.
 * Only paths that exist under `root` are touched, so prose that merely looks like a location stays as is.
 */
export function linkLocations(text: string, root: string, cwd: string, color: boolean): string {
  const known = new Map<string, string | undefined>()
  const fromCwd = (path: string): string | undefined => {
    if (!known.has(path)) {
      const absolute = nodePath.resolve(root, path)
      known.set(path, existsSync(absolute) ? nodePath.relative(cwd, absolute).split(nodePath.sep).join('/') || '.' : undefined)
    }
    return known.get(path)
  }
  return text.replace(locationPattern, (match, lead: string, path: string, line: string, column: string | undefined) => {
    const shown = fromCwd(path)
    if (shown === undefined) return match
    const location = `${shown}:${line}${column === undefined ? '' : `:${column}`}`
    return `${lead}${color ? style.location(location) : location}`
  })
}

/** The text a person sees for an outcome (stdout on success, stderr on failure). */
export function humanOutcome(outcome: ToolOutcome, root: string, cwd: string, color: boolean): string {
  const body = linkLocations(outcome.text, root, cwd, color)
  if (outcome.ok) return body.endsWith('\n') ? body : `${body}\n`
  const [first = '', ...rest] = body.split('\n')
  const text = [color ? style.error(first) : first, ...rest].join('\n')
  return text.endsWith('\n') ? text : `${text}\n`
}

/** The JSON printed by `--json`: the whole outcome envelope (ok, tool, structured or error, text, summary). */
export function jsonOutcome(outcome: ToolOutcome): string {
  return `${JSON.stringify(outcome, null, 2)}\n`
}

/** A dim line for notes on stderr. */
export function note(text: string, color: boolean): string {
  return `${color ? style.dim(text) : text}\n`
}
