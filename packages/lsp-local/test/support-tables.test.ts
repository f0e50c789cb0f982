import { lspOperations } from '@codeseam/lsp'
import { expect, test } from 'vitest'

import { languageRecords } from '../src/languages/index.js'
import type { Support } from '../src/policy/profile-operations.js'

/** An entry with its keys in one order, so the file compares what an entry says, not how it was spelled. */
const sortedKeys = (support: Support): Support =>
  support === true ? true : (Object.fromEntries(Object.entries(support).sort(([a], [b]) => a.localeCompare(b))) as Support)

/*
 * Every record's expanded support table, entry by entry and in vocabulary order, held to a file: a change to a
 * record's support (or to how the compact form expands) shows here as a diff to review. `-u` rewrites the file.
 */
test('every record expands to the support table in support-tables.snapshot.json', async () => {
  const tables = Object.fromEntries(
    languageRecords.map((record) => [
      record.id,
      Object.fromEntries(lspOperations.map((operation) => [operation, sortedKeys(record.support[operation])])),
    ]),
  )
  await expect(`${JSON.stringify(tables, null, 2)}\n`).toMatchFileSnapshot('./support-tables.snapshot.json')
})
