import { describe, expect, it } from 'vitest'

import { lspOperations } from '../src/index.js'
import { checksByOperation } from '../src/testing/conformance.js'

// The type of checksByOperation already requires an entry per operation naming checks that need it; this
// keeps an entry from being an empty list.
describe('conformance kit coverage', () => {
  it('has at least one check for every operation', () => {
    for (const operation of lspOperations) expect(checksByOperation[operation].length, operation).toBeGreaterThan(0)
  })
})
