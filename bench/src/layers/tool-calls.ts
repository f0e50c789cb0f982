import type { ReadQuery } from '../read-mix.js'
import { toolHasSubtypes } from '../type-hierarchy.js'
import { agreesWithFloor, toolNormal } from '../wide-mix.js'

/** A read query as a model would call a tool: name and JSON arguments. */
export interface ToolCall {
  readonly name: string
  readonly arguments: Record<string, unknown>
}

/**
 * The tool call answering a read query. Positions become `line` + `matchText` (+ `column`, so the aim is
 * exactly the floor's position); references keep the tool's default page size, which is the budgeting.
 */
export function toolCallFor(query: ReadQuery): ToolCall {
  const target = { path: query.path, line: query.line, column: query.position.character + 1, matchText: query.matchText }
  switch (query.operation) {
    case 'definition':
      return { name: 'code_navigate', arguments: { target, kind: 'definition' } }
    case 'references':
      return { name: 'code_navigate', arguments: { target, kind: 'references' } }
    case 'hover':
      return { name: 'code_hover', arguments: { target } }
    case 'documentSymbols':
      return { name: 'code_symbols', arguments: { path: query.path } }
    case 'implementation':
      return { name: 'code_navigate', arguments: { target, kind: 'implementation' } }
    case 'callHierarchy':
      return { name: 'code_hierarchy', arguments: { target, kind: 'callers' } }
    case 'typeHierarchy':
      return { name: 'code_hierarchy', arguments: { target, kind: 'subtypes' } }
    case 'diagnostics':
      return { name: 'code_diagnostics', arguments: { path: query.path } }
  }
}

/** Checks a tool's structured output against a query's expectation. */
export function verifyToolOutput(query: ReadQuery, structured: Record<string, unknown> | undefined): boolean {
  if (structured === undefined) return false
  if (query.expect.floor !== undefined) return agreesWithFloor(query.operation, query.expect.floor, toolNormal(query.operation, structured))
  switch (query.operation) {
    case 'definition':
      return (
        Array.isArray(structured['files']) && (structured['files'] as Array<{ path?: unknown }>).some((f) => f.path === query.expect.file)
      )
    case 'references':
      return typeof structured['totalFound'] === 'number' && structured['totalFound'] >= (query.expect.minLocations ?? 1)
    case 'hover':
      return `${String(structured['signature'] ?? '')}\n${String(structured['documentation'] ?? '')}`.includes(
        query.expect.hoverIncludes ?? '',
      )
    case 'documentSymbols':
      return JSON.stringify(structured['outline'] ?? []).includes(`"name":${JSON.stringify(query.expect.symbolName ?? '')}`)
    case 'typeHierarchy':
      return toolHasSubtypes(query, structured)
    default:
      return false
  }
}

/** Locations a references answer found in total (before the page cut). */
export function totalFound(structured: Record<string, unknown> | undefined): number {
  const total = structured?.['totalFound']
  return typeof total === 'number' ? total : 0
}

/** Whether the tool cut the answer (page or character budget). */
export function pageTruncated(structured: Record<string, unknown> | undefined): boolean {
  const page = structured?.['page'] as { truncated?: unknown } | undefined
  return page?.truncated === true
}
