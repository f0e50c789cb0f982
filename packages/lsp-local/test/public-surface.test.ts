import { expect, it } from 'vitest'

import * as surface from '../src/index.js'

/**
 * Every runtime name @codeseam/lsp-local exports, pinned: adding or removing one is a change of the public surface, made
 * on purpose (this list, and a changeset for a removal). The type-only names are pinned by public-surface-types.ts.
 */
const publicValues = [
  'ProtocolViolation',
  'StdoutGuard',
  'builtinIndexers',
  'builtinLanguages',
  'builtinProfiles',
  'clangdOperations',
  'clangdOperationsFor',
  'createLocalHost',
  'createMemoryBudget',
  'findOnPath',
  'installSourceFacts',
  'installSources',
  'mergeProfiles',
  'minimalEnvironment',
  'nativeTypeScriptOperations',
  'pathExecutables',
  'projectRootMarkers',
  'pyrightOperations',
  'readConfigFile',
  'resolveHostConfig',
  'startLocalHost',
  'toolchainEnvironment',
  'typeScriptLanguageServerOperations',
]

it('exports exactly its public values', () => {
  expect(Object.keys(surface).sort()).toEqual(publicValues)
})
