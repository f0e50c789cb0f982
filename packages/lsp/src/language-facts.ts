import { LspError } from './errors.js'
import { builtInLanguages } from './languages/index.js'
import type { LspUnresolvedText } from './unresolved-text.js'

/**
 * The language facts tools need above the seam, keyed by LSP language id (RFC 0018): what a valid identifier
 * is (rename validation), which words are reserved, and the comment syntax. The seam derives a table from its
 * language folders (`languages/<id>/`, RFC 0028) for the languages every backend meets, so a backend without language records (VS Code) still
 * validates; lsp-local's records refer to the same entries; a provider may add or replace facts for its
 * languages (`LspProvider.languageFacts`).
 */

/** The facts of one language (or of several language ids that share them, e.g. TypeScript and JavaScript). */
export interface LspLanguageFacts {
  /** LSP language ids these facts hold for. */
  readonly languageIds: ReadonlyArray<string>
  /** How people name the language in messages (`Python`, `TypeScript/JavaScript`). */
  readonly label: string
  /** A whole-string pattern for one identifier (`u` flag). */
  readonly identifier: RegExp
  /** Reserved words an identifier may not be. */
  readonly keywords: ReadonlyArray<string>
  /**
   * Reserved words are valid member names (JavaScript: `obj.delete()`, `class A { default() {} }`): a keyword
   * is refused only when the caller knows the symbol is not a member.
   */
  readonly keywordsAllowedAsMemberNames?: boolean
  /** A prefix a private member's name may carry before the identifier (JavaScript `#count`). */
  readonly privateNamePrefix?: string
  /** Comment syntax: line-comment starts and block-comment pairs. */
  readonly comments: { readonly line: ReadonlyArray<string>; readonly block: ReadonlyArray<readonly [string, string]> }
  /**
   * What the backend's diagnostics for this language cannot see, when they are narrower than the language's
   * own checker (rust-analyzer without `cargo check`): receipts quote it next to their counts, so "0
   * introduced" is never read as "the compiler agrees". A provider sets it; the seam's table does not.
   */
  readonly diagnosticsLimit?: string
  /**
   * Text the language's servers resolve no names in (Rust `macro_rules!` bodies): a rename never reaches an
   * identifier written there, though the compiler binds it where the text expands. Rename integrity looks for
   * the old name in these spans of the impact set's files and names each such use as left behind.
   */
  readonly unresolvedText?: LspUnresolvedText
}

/** The seam's own table, for every backend: the facts of each language of `builtInLanguages` with identifier rules. */
export const builtInLanguageFacts: ReadonlyArray<LspLanguageFacts> = builtInLanguages.flatMap((language) => {
  if (language.names === undefined) return []
  const { unresolvedText, ...names } = language.names
  const facts = { languageIds: language.languageIds, label: language.label, ...names, comments: language.comments }
  return [unresolvedText === undefined ? facts : { ...facts, unresolvedText }]
})

/** The seam's facts for one language id (throws when the table has none: for records that must have them). */
export function builtInFactsFor(languageId: string): LspLanguageFacts {
  const facts = builtInLanguageFacts.find((f) => f.languageIds.includes(languageId))
  if (facts === undefined) throw new Error(`the seam has no language facts for "${languageId}"`)
  return facts
}

/** What {@link validateIdentifier} knew. */
export interface LspNameCheck {
  readonly languageId: string
  /** Whether the language's facts were known and the name was checked against them. */
  readonly checked: boolean
  /** Why it was not checked, when it was not. */
  readonly note?: string
}

/**
 * Refuses a new name that is not one identifier of the language, or is one of its reserved words, with
 * INVALID_ARGUMENT naming the rule. `member`: whether the symbol is a member (undefined: not known; then a
 * language whose reserved words are valid member names is not refused for a keyword).
 */
export function validateIdentifier(
  facts: LspLanguageFacts | undefined,
  languageId: string,
  name: string,
  options: { readonly member?: boolean } = {},
): LspNameCheck {
  if (typeof name !== 'string' || name.length === 0 || name.trim() !== name) {
    throw new LspError('INVALID_ARGUMENT', 'the new name must be a non-empty identifier without surrounding whitespace')
  }
  if (facts === undefined) {
    return {
      languageId,
      checked: false,
      note: `codeseam knows no identifier rules for "${languageId}": only the server's own checks apply`,
    }
  }
  const prefix = facts.privateNamePrefix
  const bare = prefix !== undefined && name.startsWith(prefix) ? name.slice(prefix.length) : name
  if (!facts.identifier.test(bare)) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `"${name}" is not a valid ${facts.label} identifier; choose a name made of letters, digits and underscores that does not start with a digit`,
      {
        data: { languageId, newName: name },
      },
    )
  }
  const keywordAllowed = facts.keywordsAllowedAsMemberNames === true && options.member !== false
  if (bare === name && !keywordAllowed && facts.keywords.includes(name)) {
    throw new LspError('INVALID_ARGUMENT', `"${name}" is a ${facts.label} keyword and cannot name a symbol; choose another name`, {
      data: { languageId, newName: name, keyword: true },
    })
  }
  return { languageId, checked: true }
}
