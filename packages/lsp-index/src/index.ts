// The public surface of @codeseam/lsp-index: a seam provider answering from a SCIP index, and the pieces a
// composition (index and live server together) builds on: the decoder, the index tables and the answering core.
export { createIndexProvider, indexOperations } from './provider.js'
export type { IndexProvider, IndexProviderOptions } from './provider.js'
export { decodeScipIndex, readScipIndex, readScipIndexWithTable, isCanonicalRelativePath } from './decode.js'
export type { DecodedIndex, IndexDocument, IndexEncoding, IndexOccurrence, IndexSymbolInfo } from './decode.js'
export { ScipIndex, definitionRole } from './scip-index.js'
export type { IndexHit, IndexLocation } from './scip-index.js'
export { IndexAnswers } from './answers.js'
export type { IndexLocations, IndexTextReader } from './answers.js'
export { convertColumn } from './encoding.js'
export { kindOfSymbol, parseSymbol } from './symbols.js'
export type { Descriptor, DescriptorSuffix, ParsedSymbol } from './symbols.js'
export {
  contentDigest,
  documentFreshness,
  findStoredIndex,
  indexedProjects,
  indexStoreDirectory,
  keptEntriesPerRoot,
  looseFiles,
  looseProjectConfig,
  looseProjectFolder,
  looseVariant,
  pruneStoredIndexes,
  readStoredIndex,
  rootPrefix,
  sha256,
  sidecarFile,
  staleDocuments,
  storeKey,
  storedIndexFile,
  workspaceFiles,
  writeLooseProject,
} from './store.js'
export type { DocumentFreshness, IndexSidecar, StoredIndex } from './store.js'
export { createIndexAndLiveProvider, indexTableFile, loadStoredIndex, prepareStoredEntry, prepareStoredIndex } from './compose.js'
export type { IndexAndLiveOptions, LoadedIndex } from './compose.js'
export { DiskState, diskHashesFile, staleOf } from './disk-state.js'
export type { DiskView, FileState } from './disk-state.js'
