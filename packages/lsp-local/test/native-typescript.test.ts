import { nativeTypeScriptOperations } from '../src/index.js'
import { typeScriptFixture } from './fixture-specs.js'
import { describeProfile } from './profile-suite.js'

describeProfile('typescript', {}, nativeTypeScriptOperations, typeScriptFixture)
