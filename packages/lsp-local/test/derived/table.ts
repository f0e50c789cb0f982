// The type-hierarchy oracle's report: a table (workspace × operation: checked, equal, wrong) and, for every wrong
// answer, the declaration asked about with what the oracle expected and what codeseam gave.
import { formatColumns } from '../oracle/compare.js'
import { hierarchyOperations, isEqual, type HierarchyComparison } from './seam-hierarchy.js'

export interface HierarchyRow {
  readonly workspace: string
  readonly operation: string
  readonly checked: number
  readonly equal: number
  readonly wrong: number
}

export function hierarchyRows(comparisons: ReadonlyArray<HierarchyComparison>): HierarchyRow[] {
  const workspaces = [...new Set(comparisons.map((c) => c.workspace))]
  return workspaces.flatMap((workspace) =>
    hierarchyOperations.flatMap((operation) => {
      const asked = comparisons.filter((c) => c.workspace === workspace && c.operation === operation)
      if (asked.length === 0) return []
      const equal = asked.filter(isEqual).length
      return [{ workspace, operation, checked: asked.length, equal, wrong: asked.length - equal }]
    }),
  )
}

export function formatHierarchyTable(rows: ReadonlyArray<HierarchyRow>): string {
  const header = ['workspace', 'operation', 'checked', 'equal', 'wrong']
  const lines = rows.map((row) => [row.workspace, row.operation, String(row.checked), String(row.equal), String(row.wrong)])
  return formatColumns(header, lines)
}

/** Every wrong answer: target, then the keys only the oracle has (missing) and only codeseam has (extra). */
export function formatHierarchyDifferences(comparisons: ReadonlyArray<HierarchyComparison>, total = 400): string {
  const wrong = comparisons.filter((c) => !isEqual(c))
  const lines = wrong.slice(0, total).map((c) => {
    const got = new Set(c.got)
    const expected = new Set(c.expected)
    const missing = c.expected.filter((key) => !got.has(key))
    const extra = c.got.filter((key) => !expected.has(key))
    return (
      `${c.workspace} ${c.operation} ${c.target}\n` +
      `    expected [${c.expected.join(', ')}]\n` +
      `    got      [${c.got.join(', ')}]\n` +
      `    missing  [${missing.join(', ')}]  extra [${extra.join(', ')}]`
    )
  })
  if (wrong.length > total) lines.push(`… and ${wrong.length - total} more`)
  return lines.join('\n')
}
