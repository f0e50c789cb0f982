import { LspError } from '@codeseam/lsp'
import { expect } from 'vitest'

/** The LspError `promise` rejects with; the test fails when it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<LspError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LspError)
  return error as LspError
}
