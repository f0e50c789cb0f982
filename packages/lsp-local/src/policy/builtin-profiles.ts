/*
 * The built-in profiles come from the language records (languages/); these names stay importable from here.
 */
export { builtinProfiles } from '../languages/index.js'
export { clangdMajor, findClangd, findClangdCandidates } from '../languages/clangd/lookup.js'
export { clangdUnavailable } from '../languages/clangd/record.js'
