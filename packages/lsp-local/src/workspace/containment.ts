/**
 * The seam's containment serves this host: one rule for every backend (see `Containment` in @codeseam/lsp).
 * Re-exported here so the host's modules keep one import site for it.
 */
export { Containment, assertReadable, maxPathLength } from '@codeseam/lsp'
