import { expect, it } from 'vitest'

import * as surface from '../src/index.js'

/**
 * Every runtime name @codeseam/tool-lsp exports, pinned: adding or removing one is a change of the public surface, made
 * on purpose (this list, and a changeset for a removal). The type-only names are pinned by public-surface-types.ts.
 */
const publicValues = [
  'FirstMatchInput',
  'ModelRangeOutput',
  'NonNegativeInt',
  'PageOutput',
  'PositiveInt',
  'ReadinessOutput',
  'ResolvedTargetOutput',
  'TargetInput',
  'callTool',
  'decodeToolInput',
  'defineTool',
  'languageDiagnosticsLimits',
  'noticeFor',
  'projectLoadingWords',
  'quoteDiagnosticsLimit',
  'readTools',
  'selectTools',
  'targetOutput',
  'toAnthropicTool',
  'toJsonSchema',
  'toMcpTool',
  'toOpenAiTool',
  'toolContext',
]

it('exports exactly its public values', () => {
  expect(Object.keys(surface).sort()).toEqual(publicValues)
})
