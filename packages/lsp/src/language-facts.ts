/**
 * The language facts tools need above the seam, keyed by LSP language id (RFC 0018): what a valid identifier
 * is (rename validation), which words are reserved, and the comment syntax (symbol ranges). The seam holds a
 * table for the languages every backend meets, so a backend without language records (VS Code) still
 * validates; a provider may add or replace facts for its languages (`LspProvider.languageFacts`).
 */

/** The facts of one language (or of several language ids that share them, e.g. TypeScript and JavaScript). */
export interface LspLanguageFacts {
  /** LSP language ids these facts hold for. */
  readonly languageIds: ReadonlyArray<string>
  /** A whole-string pattern for one identifier (`u` flag). */
  readonly identifier: RegExp
  /** Reserved words an identifier may not be. */
  readonly keywords: ReadonlyArray<string>
  /** Comment syntax: line-comment starts and block-comment pairs. */
  readonly comments: { readonly line: ReadonlyArray<string>; readonly block: ReadonlyArray<readonly [string, string]> }
}

/** The seam's own table, for every backend. */
export const builtInLanguageFacts: ReadonlyArray<LspLanguageFacts> = []
