import type { ConformanceFixtureSource } from '../testing/fixture-record.js'
import type { LspUnresolvedText } from '../unresolved-text.js'

/**
 * What the seam knows about one language, whatever serves it (RFC 0028): a folder `languages/<language id>/`
 * per language, listed once in `languages/list.ts` (generated). Everything that needs a language's facts — rename
 * validation, symbol ranges, module manifests, the conformance kit — derives them from that list. Only
 * provider-neutral facts belong here: which server serves a language, and how, is a provider's business.
 */
export interface LspLanguage {
  /** The language's main LSP language id, and its folder's name (`typescript`, `shellscript`). */
  readonly id: string
  /** Every LSP language id these facts hold for (TypeScript's cover JavaScript and the React variants). */
  readonly languageIds: ReadonlyArray<string>
  /** How people name the language in messages (`Python`, `TypeScript/JavaScript`). */
  readonly label: string
  /** File extensions the language is known by, lower-case with the dot (`.py`). */
  readonly extensions: ReadonlyArray<string>
  /** Whole file names the language is known by (`Dockerfile`). */
  readonly fileNames?: ReadonlyArray<string>
  /** Comment syntax: line-comment starts and block-comment pairs. */
  readonly comments: LspCommentSyntax
  /**
   * What a valid identifier is and which words are reserved: the facts rename validation reads
   * (`LspLanguageFacts`). Absent for languages without identifiers to check (YAML, Markdown).
   */
  readonly names?: LspNameRules
  /**
   * How a declaration sits in the text (decorators, modifiers, body), for symbol edits. Absent: the C
   * family's reading ({@link braceDeclarations} with `//` and block comments), which symbol edits always used.
   */
  readonly declarations?: LspDeclarationSyntax
  /** Files whose folder is a package or module (`go.mod`): impact analysis groups files by them. */
  readonly manifests?: ReadonlyArray<string>
  /** The conformance kit's fixture record for the language (`@codeseam/lsp/testing`'s `conformanceFixtures`). */
  readonly conformance?: ConformanceFixtureSource
}

/** Line-comment starts and block-comment pairs. */
export interface LspCommentSyntax {
  readonly line: ReadonlyArray<string>
  readonly block: ReadonlyArray<readonly [string, string]>
}

/** A language's identifier rules (RFC 0018). */
export interface LspNameRules {
  /** A whole-string pattern for one identifier (`u` flag). */
  readonly identifier: RegExp
  /** Reserved words an identifier may not be. */
  readonly keywords: ReadonlyArray<string>
  /** Reserved words are valid member names (JavaScript: `obj.delete()`). */
  readonly keywordsAllowedAsMemberNames?: boolean
  /** A prefix a private member's name may carry before the identifier (JavaScript `#count`). */
  readonly privateNamePrefix?: string
  /** Text the language's servers resolve no names in (Rust `macro_rules!` bodies). */
  readonly unresolvedText?: LspUnresolvedText
}

/** How declarations sit in a language's text, beyond the ranges servers report. */
export interface LspDeclarationSyntax {
  /** Starts of a decorator or attribute line (`@`, Rust's `#[`), attached to the declaration below. */
  readonly decorators: ReadonlyArray<string>
  /** Text that may precede a declaration's range on its line (modifiers, keywords) for it to own the line. */
  readonly modifiers: RegExp
  /**
   * How a body is delimited: `braces` (the first `{` after the name, closed by a `}` line), or `indentation`
   * (a header ending in `:`, then indented lines whose leading string literal — a docstring — stays first).
   */
  readonly body: 'braces' | 'indentation'
}

/** Splits a space-separated word list. */
export const words = (list: string): ReadonlyArray<string> => list.split(/\s+/).filter((word) => word !== '')

/** `//` line comments and slash-star block comments. */
export const slashComments: LspCommentSyntax = { line: ['//'], block: [['/*', '*/']] }

/** `#` line comments only. */
export const hashComments: LspCommentSyntax = { line: ['#'], block: [] }

/**
 * The C family's declarations, as symbol edits have read every brace language: `@` decorators and `#[`
 * attributes alike (neither starts a line of valid code in the others), and TypeScript's modifier words.
 */
export const braceDeclarations: LspDeclarationSyntax = {
  decorators: ['@', '#['],
  modifiers:
    /^\s*(?:(?:@[\w.$]+(?:\([^()]*\))?|export|default|declare|abstract|async|const|let|var|using|public|private|protected|static|readonly|override|accessor|function\*?|class|interface|type|enum|namespace|module|get|set)\s+)*$/,
  body: 'braces',
}

/** `<!-- -->` comments (HTML, and Markdown's HTML). */
export const markupComments: LspCommentSyntax = { line: [], block: [['<!--', '-->']] }
