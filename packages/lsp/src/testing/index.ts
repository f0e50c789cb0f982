export { runConformance, formatConformanceReport } from './conformance.js'
export type { ConformanceCheck, ConformanceOptions, ConformanceReport, ConformanceSubject } from './conformance.js'
export type { ConformanceCheckId, ConformanceFixture, ConformanceFixtureSource, FixtureSite, FixtureSymbol } from './fixture-record.js'
export {
  bashFixture,
  conformanceFixtures,
  cppFixture,
  cssFixture,
  dockerfileFixture,
  goFixture,
  htmlFixture,
  jsonFixture,
  markdownFixture,
  protoFixture,
  pythonFixture,
  rustFixture,
  tomlFixture,
  typeScriptFixture,
  yamlFixture,
} from './fixtures.js'
export { copyFixture, conformanceFixtureDir } from './fixture.js'
export type { FixtureWorkspace } from './fixture.js'
export { createMemoryWorkspace } from './memory-workspace.js'
export type { MemoryWorkspace } from './memory-workspace.js'
