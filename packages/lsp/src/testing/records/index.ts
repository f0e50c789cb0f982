import type { ConformanceFixture } from '../fixture-record.js'
import { cppFixture } from './cpp.js'
import { goFixture } from './go.js'
import { pythonFixture } from './python.js'
import { rustFixture } from './rust.js'
import { typeScriptFixture } from './typescript.js'

export { cppFixture, goFixture, pythonFixture, rustFixture, typeScriptFixture }

/** Every fixture record the kit ships, by language id. */
export const conformanceFixtures = {
  typescript: typeScriptFixture,
  python: pythonFixture,
  go: goFixture,
  rust: rustFixture,
  cpp: cppFixture,
} as const satisfies { readonly [languageId: string]: ConformanceFixture }
