import { builtInLanguages } from '../languages/index.js'
import type { LspLanguage } from '../languages/language.js'
import type { ConformanceFixture } from './fixture-record.js'
import { kitFixtureDir } from './fixture.js'

/**
 * The conformance fixtures the kit ships, derived from the seam's language folders (RFC 0028): each folder's
 * record, placed — its fixture folder resolved under the kit's `fixtures/`, its language id the folder's.
 */

/** A language's fixture record, placed; undefined for a language without one. */
function placed(language: LspLanguage): ConformanceFixture | undefined {
  if (language.conformance === undefined) return undefined
  const { folder, ...record } = language.conformance
  return { languageId: language.id, dir: kitFixtureDir(folder), ...record }
}

/** Every fixture record the kit ships, by language id (in the order of the seam's language list). */
export const conformanceFixtures: { readonly [languageId: string]: ConformanceFixture } = Object.fromEntries(
  builtInLanguages.flatMap((language) => {
    const fixture = placed(language)
    return fixture === undefined ? [] : [[language.id, fixture] as const]
  }),
)

/** One language's fixture record; throws for a language without one. */
function fixtureOf(languageId: string): ConformanceFixture {
  const fixture = conformanceFixtures[languageId]
  if (fixture === undefined) throw new Error(`the seam has no conformance fixture for "${languageId}"`)
  return fixture
}

// The names the kit exported before its records moved into the language folders, kept for the suites that
// import them: each is an entry of `conformanceFixtures`, not a list of its own. A new language gets none.
/** The TypeScript fixture (`fixtures/conformance`): the kit's default record. */
export const typeScriptFixture = fixtureOf('typescript')
/** The Python fixture (`fixtures/conformance-python`). */
export const pythonFixture = fixtureOf('python')
/** The Go fixture (`fixtures/conformance-go`). */
export const goFixture = fixtureOf('go')
/** The Rust fixture (`fixtures/conformance-rust`). */
export const rustFixture = fixtureOf('rust')
/** The C++ fixture (`fixtures/conformance-cpp`). */
export const cppFixture = fixtureOf('cpp')
/** The YAML fixture (`fixtures/conformance-yaml`). */
export const yamlFixture = fixtureOf('yaml')
/** The JSON fixture (`fixtures/conformance-json`). */
export const jsonFixture = fixtureOf('json')
/** The CSS fixture (`fixtures/conformance-css`). */
export const cssFixture = fixtureOf('css')
/** The HTML fixture (`fixtures/conformance-html`). */
export const htmlFixture = fixtureOf('html')
/** The Markdown fixture (`fixtures/conformance-markdown`). */
export const markdownFixture = fixtureOf('markdown')
/** The shell fixture (`fixtures/conformance-bash`). */
export const bashFixture = fixtureOf('shellscript')
/** The Dockerfile fixture (`fixtures/conformance-dockerfile`). */
export const dockerfileFixture = fixtureOf('dockerfile')
/** The TOML fixture (`fixtures/conformance-toml`). */
export const tomlFixture = fixtureOf('toml')
/** The Protocol Buffers fixture (`fixtures/conformance-proto`). */
export const protoFixture = fixtureOf('proto')
