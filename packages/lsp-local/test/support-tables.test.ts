import { lspOperations } from '@codeseam/lsp'
import { describe, expect, test } from 'vitest'

import { languageRecords } from '../src/languages/index.js'
import {
  codeSupport,
  documentSupport,
  languageLacks,
  operationDefaults,
  supportedOperations,
  type eachRecordDecides,
  type Support,
  type SupportExceptionsOf,
} from '../src/profile/profile-operations.js'

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

describe('the compact form', () => {
  test('a code server answers every operation but the exceptions', () => {
    const table = codeSupport({ hover: { no: 'none' }, inlayHints: { since: 3, why: 'came in 3' } })
    expect(Object.keys(table).sort()).toEqual([...lspOperations].sort())
    expect(supportedOperations(table)).toEqual(lspOperations.filter((operation) => operation !== 'hover'))
    expect(supportedOperations(table, 2)).toEqual(lspOperations.filter((operation) => operation !== 'hover' && operation !== 'inlayHints'))
  })

  test("a document server answers only the exceptions; the rest is worded with the language's and the server's names", () => {
    const table = documentSupport({ files: 'INI files', verb: 'have' }, 'the INI server', {
      documentSymbols: true,
      references: notAnswered,
    })
    expect(supportedOperations(table)).toEqual(['documentSymbols'])
    expect(table.typeDefinition).toEqual({ no: 'INI files have no types', inLanguage: false })
    expect(table.format).toEqual({ no: 'the INI server does not format' })
    expect(table.references).toBe(notAnswered)
    expect(languageLacks(table, 'rename')).toBe(true)
    expect(languageLacks(table, 'hover')).toBe(false)
  })

  test('every operation has a default for each kind of server, or says each record decides', () => {
    expect(Object.keys(operationDefaults)).toEqual([...lspOperations])
  })

  test('an operation without a default must be stated by every record (a compile error otherwise)', () => {
    type Undefaulted = Omit<typeof operationDefaults, 'hover'> & { readonly hover: typeof eachRecordDecides }
    // @ts-expect-error: hover has no default, so the exceptions must state it
    const silent: SupportExceptionsOf<Undefaulted> = { definition: true }
    const stated: SupportExceptionsOf<Undefaulted> = { definition: true, hover: { no: 'none' } }
    expect([silent, stated]).toHaveLength(2)
  })
})

const notAnswered = { no: 'not yet' }
