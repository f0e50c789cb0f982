import type { PageOutput, ReadinessOutput, ResolvedTargetOutput } from './schemas.js'

/**
 * Text rendering shared by every tool: the same header, footer and notice lines everywhere, so a model
 * learns one layout. Positions are `path:line:column`, 1-based.
 */

/** `path:line:column`. */
export function at(path: string, line: number, column?: number): string {
  return column === undefined ? `${path}:${line}` : `${path}:${line}:${column}`
}

/** The resolved target line: `target: Router.match (method) at src/router.ts:12:3`. */
export function renderTarget(target: ResolvedTargetOutput): string {
  const name = target.symbol === undefined ? '' : `${target.symbol}${target.kind === undefined ? '' : ` (${target.kind})`} `
  return `target: ${name}at ${at(target.path, target.line, target.column)}`
}

/** Readiness, only when it is not plainly ready (a ready answer needs no caveat). */
export function renderReadiness(readiness: ReadinessOutput): string | undefined {
  if (readiness.status === 'ready' && readiness.stale !== true && readiness.providerTruncated !== true) return undefined
  const caveats = [
    readiness.stale === true ? 'file changed while answering' : undefined,
    readiness.providerTruncated === true ? 'answer cut short by the server' : undefined,
  ].filter((c) => c !== undefined)
  return `server: ${readiness.status}${readiness.warm ? '' : ' (cold)'}${caveats.length === 0 ? '' : `, ${caveats.join(', ')}`}`
}

/** The page footer: "showing 100 of 431 (next page: cursor "…")". */
export function renderPage(page: PageOutput, noun: string): string | undefined {
  if (!page.truncated && (page.offset ?? 0) === 0) return undefined
  const from = (page.offset ?? 0) + 1
  const to = (page.offset ?? 0) + page.returned
  const range = page.returned === 0 ? 'none' : `${from}–${to}`
  const next = page.nextCursor === undefined ? 'last page' : `more: call again with cursor "${page.nextCursor}"`
  return `showing ${noun} ${range} of ${page.total} (${next})`
}

/** Notice line. */
export function renderNotice(notice: string | undefined): string | undefined {
  return notice === undefined ? undefined : `notice: ${notice}`
}

/** Joins present lines with newlines. */
export function lines(...parts: ReadonlyArray<string | undefined | ReadonlyArray<string>>): string {
  const out: string[] = []
  for (const part of parts) {
    if (part === undefined) continue
    if (typeof part === 'string') out.push(part)
    else out.push(...part)
  }
  return `${out.join('\n')}\n`
}

/** Indents every line of a block. */
export function indent(block: string, by = '    '): string {
  return block
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n')
}

/** "1 file" / "3 files". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}
