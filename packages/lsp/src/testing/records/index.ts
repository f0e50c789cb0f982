import type { ConformanceFixture } from '../fixture-record.js'
import {
  bashFixture,
  cssFixture,
  dockerfileFixture,
  htmlFixture,
  jsonFixture,
  markdownFixture,
  protoFixture,
  tomlFixture,
  yamlFixture,
} from './config.js'
import { cppFixture } from './cpp.js'
import { goFixture } from './go.js'
import { pythonFixture } from './python.js'
import { rustFixture } from './rust.js'
import { typeScriptFixture } from './typescript.js'

export {
  bashFixture,
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
}

/** Every fixture record the kit ships, by language id. */
export const conformanceFixtures = {
  typescript: typeScriptFixture,
  python: pythonFixture,
  go: goFixture,
  rust: rustFixture,
  cpp: cppFixture,
  yaml: yamlFixture,
  json: jsonFixture,
  css: cssFixture,
  html: htmlFixture,
  markdown: markdownFixture,
  shellscript: bashFixture,
  dockerfile: dockerfileFixture,
  toml: tomlFixture,
  proto: protoFixture,
} as const satisfies { readonly [languageId: string]: ConformanceFixture }
