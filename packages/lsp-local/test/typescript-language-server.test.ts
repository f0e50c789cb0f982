import { typeScriptLanguageServerOperations } from '../src/index.js'
import { typeScriptFixture } from './fixture-specs.js'
import { typeScriptLanguageServerInstead } from './helpers.js'
import { describeProfile } from './profile-suite.js'

// The alternative TypeScript profile: enabled in place of the native server.
describeProfile('typescript-language-server', typeScriptLanguageServerInstead, typeScriptLanguageServerOperations, typeScriptFixture)
