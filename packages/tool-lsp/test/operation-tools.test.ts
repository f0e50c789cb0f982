import { lspOperations } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { readTools } from '../src/index.js'
import { toolByOperation } from '../src/operation-tools.js'

describe('toolByOperation', () => {
  it('names only tools this package defines for the read operations', () => {
    const names = new Set(readTools.map((tool) => tool.name))
    // Through Object.entries, so a new operation fails to compile in operation-tools.ts only, not here too.
    expect(Object.keys(toolByOperation).sort()).toEqual([...lspOperations].sort())
    for (const [operation, tool] of Object.entries(toolByOperation)) {
      if ('read' in tool) expect(names, `${operation} → ${tool.read}`).toContain(tool.read)
    }
  })

  it('leaves no read tool without an operation, except status and impact (derived in the seam from several, RFC 0019)', () => {
    const used = new Set(Object.values(toolByOperation).flatMap((tool) => ('read' in tool ? [tool.read] : [])))
    expect(
      readTools
        .map((tool) => tool.name)
        .filter((name) => !used.has(name as never))
        .sort(),
    ).toEqual(['code_impact', 'code_status'])
  })
})
