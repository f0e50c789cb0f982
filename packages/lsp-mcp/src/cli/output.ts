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
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true
}

const locationPattern = /(^|[\s(])((?:[\w@.+-]+\/)*[\w@.+-]+\.[\w]+):(\d+)(?::(\d+))?/gm
/** A file header of grouped tool output: `src/main.ts (2)`. */
const groupHeader = /^((?:[\w@.+-]+\/)*[\w@.+-]+\.[\w]+) \(\d+\)$/
/** A location line under a group header: `  5:17  const total = …`. */
const groupedLocation = /^(\s+)(\d+):(\d+)(?=\s|$)/

/**
 * Rewrites workspace-relative locations so they resolve from `cwd` (terminals and editors open
 * `path:line:col` relative to where the command ran), and colors them. Two shapes occur in tool text:
 * inline `path:line:col`, and a `path (count)` header followed by indented `line:col` lines, which become
 * `path:line:col` so each one is clickable. Only paths that exist under `root` are touched.
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
  const paint = (location: string) => (color ? style.location(location) : location)
  let groupPath: string | undefined
  return text
    .split('\n')
    .map((line) => {
      const header = groupHeader.exec(line)
      if (header !== null) {
        groupPath = fromCwd(header[1] ?? '')
        return line
      }
      if (groupPath !== undefined) {
        const grouped = groupedLocation.exec(line)
        if (grouped !== null) {
          return `${grouped[1]}${paint(`${groupPath}:${grouped[2]}:${grouped[3]}`)}${line.slice(grouped[0].length)}`
        }
        if (!/^\s/.test(line)) groupPath = undefined
      }
      return line.replace(locationPattern, (match, lead: string, path: string, lineNumber: string, column: string | undefined) => {
        const shown = fromCwd(path)
        if (shown === undefined) return match
        return `${lead}${paint(`${shown}:${lineNumber}${column === undefined ? '' : `:${column}`}`)}`
      })
    })
    .join('\n')
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
