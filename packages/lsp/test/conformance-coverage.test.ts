import { describe, expect, it } from 'vitest'

import { lspOperations } from '../src/index.js'
import { checksByOperation } from '../src/testing/conformance.js'

// The type of checksByOperation already requires an entry per operation naming checks that need it; this
// keeps an entry from being an empty list.
describe('conformance kit coverage', () => {
  it('has at least one check for every operation', () => {
    // Through Object.entries, so a new operation fails to compile in conformance.ts only, not here too.
    expect(Object.keys(checksByOperation).sort()).toEqual([...lspOperations].sort())
    for (const [operation, checks] of Object.entries(checksByOperation)) expect(checks.length, operation).toBeGreaterThan(0)
  })
})
