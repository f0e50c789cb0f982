import type { ServerPackage } from '../languages/install.js'

/**
 * An indexer codeseam installs like a language server (issue 52): not a server (no profile, nothing runs at query
 * time), but its package is stated once, as install data, so `codeseam doctor` lists it, `codeseam install ID`
 * installs it into codeseam's cache and scripts/install-language-servers.mjs installs it for CI. One folder each,
 * packages/lsp-local/src/indexers/<id>/; nothing else names its package (test/install-names.test.ts).
 */
export interface IndexerRecord {
  /** `codeseam install ID`, the folder's name, the cache folder's prefix. */
  readonly id: string
  /** The languages it indexes, as `codeseam doctor` says them. */
  readonly language: string
  /** What it is, one line, for `codeseam doctor`. */
  readonly indexer: string
  /** Its package (an npm package URL: installed into `~/.cache/codeseam/ID-VERSION`). */
  readonly install: ServerPackage & { readonly purl: `pkg:npm/${string}@${string}` }
  /** The script in the package that Node runs (the package's bin is a shell-free `#!/usr/bin/env node` script). */
  readonly entry: string
  /** The npm package of the compiler it bundles (its version is the index's compiler version). */
  readonly compiler: string
}
