// The completeness oracle's reusable parts, for the benchmark (bench/ runs TypeScript sources through its
// register.mjs: `import { runOracle } from '../../packages/lsp-local/test/oracle/index.js'`).
//
//   const run = await runOracle({ name, root, language: 'typescript' })    // bare server, every file open
//   run.selection.symbols                                                   // the 20 top + 20 seeded symbols
//   run.answers.get(symbolId(symbol))?.references                          // normalised keys
//   await seamAsk(lsp, root, 'typescript', 'references', symbol)           // codeseam's answer, same keys
//   await oracleAnswers({ root, language }, symbols)                       // answers for symbols of your own
export {
  compareWithSeam,
  formatDifferences,
  formatTable,
  rowPasses,
  tableRows,
  type CompareOptions,
  type SeamComparison,
  type TableRow,
} from './compare.js'
export { callKey, difference, locationKey, textEditKey, unique, workspaceSymbolKey } from './keys.js'
export {
  OracleServer,
  operationsFor,
  oracleOperations,
  pythonFolders,
  renameTo,
  sourceExtensions,
  sourceFilesOf,
  workspaceFoldersOf,
  workspaceLayoutOf,
  type WorkspaceLayout,
  type OracleLanguage,
  type OracleOperation,
  type OracleOptions,
  type SymbolAnswers,
  type SymbolTarget,
} from './oracle.js'
export { noProject, projectModel, pythonProjects, typeScriptProjects, type ProjectModel } from './projects.js'
export { answersFrom, oracleAnswers, runOracle, type OracleRun, type RunOptions, type WorkspaceSpec } from './run.js'
export { seamAsk } from './seam.js'
export { defaultSeed, exportedSymbols, seededRandom, selectSymbols, symbolId, type SelectedSymbol, type Selection } from './select.js'
export { corporaFolder, generatedWorkspace, repositoryRoot, repositorySnapshot, unpackCorpora, type OracleWorkspace } from './workspaces.js'
export {
  shapeWriters,
  writeAngularApp,
  writeNxWorkspace,
  writePlainJavaScriptFolder,
  writeViteApp,
  type GeneratedWorkspace,
  type ShapeName,
} from './shapes.js'
