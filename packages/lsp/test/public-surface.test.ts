import { expect, it } from 'vitest'

import * as surface from '../src/index.js'

/**
 * Every runtime name @codeseam/lsp exports, pinned: adding or removing one is a change of the public surface, made
 * on purpose (this list, and a changeset for a removal). The type-only names are pinned by public-surface-types.ts.
 */
const publicValues = [
  'BoundedCache',
  'Containment',
  'Lsp',
  'LspError',
  'OperationRollup',
  'TelemetryAttr',
  'TelemetrySpan',
  'TextLines',
  'activeQuerySpanOwner',
  'annotateActiveSpan',
  'applyTextEdits',
  'assertReadable',
  'builtInFactsFor',
  'builtInLanguageFacts',
  'canDerive',
  'canonicalPath',
  'comparePositions',
  'configureTelemetry',
  'containPath',
  'contentHash',
  'createLsp',
  'declareTelemetryIds',
  'deriveOperation',
  'derivedOperations',
  'displayPath',
  'documentSymbolsFor',
  'errorCodeOf',
  'extensionOf',
  'failSpan',
  'fileAttributes',
  'inSpan',
  'isDerivable',
  'isDerivedItem',
  'isLspError',
  'isWithin',
  'isWorkspacePath',
  'linesFor',
  'lspErrorCodes',
  'lspOperations',
  'lspSymbolKinds',
  'maxPathLength',
  'nameAttributes',
  'normalizeExtension',
  'normalizeRoot',
  'observeTelemetry',
  'operationInfo',
  'pathToUri',
  'providerDerivationHost',
  'queryEffect',
  'rangeContains',
  'rangesOverlap',
  'registerProviderScoped',
  'registerWorkspaceScoped',
  'relativizeText',
  'resolveFile',
  'resolveInRoot',
  'resolveTarget',
  'resultMeta',
  'rollupWindow',
  'rootAttributes',
  'snippetToPlainText',
  'symbolKindFromNumber',
  'telemetryEnabled',
  'telemetryHash',
  'telemetryId',
  'telemetryIncludesPaths',
  'telemetryInstruments',
  'textRelativizer',
  'toLspError',
  'toModelPosition',
  'toModelRange',
  'uriToPath',
  'validateIdentifier',
  'withQuerySpanOwner',
]

it('exports exactly its public values', () => {
  expect(Object.keys(surface).sort()).toEqual(publicValues)
})

const testingValues = [
  'conformanceFixtureDir',
  'conformanceFixtures',
  'copyFixture',
  'cppFixture',
  'createMemoryWorkspace',
  'formatConformanceReport',
  'goFixture',
  'pythonFixture',
  'runConformance',
  'rustFixture',
  'typeScriptFixture',
]

it('exports exactly its public testing kit from @codeseam/lsp/testing', async () => {
  expect(Object.keys(await import('../src/testing/index.js')).sort()).toEqual(testingValues)
})
