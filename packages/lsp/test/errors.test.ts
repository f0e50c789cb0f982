import { describe, expect, expectTypeOf, test } from 'vitest'

import {
  LspError,
  isLspError,
  lspErrorCodes,
  toLspError,
  type LspCandidate,
  type LspErrorCode,
  type LspErrorDataByCode,
} from '../src/index.js'

describe('error data typed by code', () => {
  test("isLspError with a code narrows data to that code's shape", () => {
    const thrown: unknown = new LspError('AMBIGUOUS', 'two symbols match', {
      data: { candidates: [{ label: 'a.ts:1 foo' }, { label: 'b.ts:2 foo' }] },
    })
    if (!isLspError(thrown, 'AMBIGUOUS')) throw new Error('expected AMBIGUOUS')
    expectTypeOf(thrown.code).toEqualTypeOf<'AMBIGUOUS'>()
    expectTypeOf(thrown.data.candidates).toEqualTypeOf<ReadonlyArray<LspCandidate>>()
    expect(thrown.data.candidates.map((c) => c.label)).toEqual(['a.ts:1 foo', 'b.ts:2 foo'])
  })

  test('several codes narrow to their union; no code keeps every code', () => {
    const error: unknown = new LspError('NOT_FOUND', 'no symbol fooo', { data: { nearest: ['foo'] } })
    if (isLspError(error, 'NOT_FOUND', 'AMBIGUOUS')) {
      expectTypeOf(error.code).toEqualTypeOf<'NOT_FOUND' | 'AMBIGUOUS'>()
      expect(error.code === 'NOT_FOUND' ? error.data.nearest : undefined).toEqual(['foo'])
    }
    if (isLspError(error)) expectTypeOf(error.code).toEqualTypeOf<LspErrorCode>()
    expect(isLspError(error, 'AMBIGUOUS')).toBe(false)
  })

  test('a code whose data has required fields cannot be created without them', () => {
    // @ts-expect-error AMBIGUOUS needs its candidates
    const missing = new LspError('AMBIGUOUS', 'two symbols match')
    expect(missing.data).toEqual({})
    // Codes whose data is all optional need none.
    expect(new LspError('TIMEOUT', 'too slow').data).toEqual({})
    expect(toLspError(new Error('boom'), 'SERVER_ERROR', 'ctx').data).toEqual({})
  })

  test('every code has a data entry', () => {
    expectTypeOf<keyof LspErrorDataByCode>().toEqualTypeOf<LspErrorCode>()
    expect(lspErrorCodes.length).toBe(20)
  })
})
