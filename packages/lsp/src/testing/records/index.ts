import type { ConformanceFixture } from '../fixture-record.js'
import { typeScriptFixture } from './typescript.js'

export { typeScriptFixture }

/** Every fixture record the kit ships, by language id. */
export const conformanceFixtures = {
  typescript: typeScriptFixture,
} as const satisfies { readonly [languageId: string]: ConformanceFixture }
