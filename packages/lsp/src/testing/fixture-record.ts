import type { LspSymbolKind } from '../vocabulary.js'

/**
 * A place in a fixture file, found by text: `text` occurs exactly once in `file`, and the position is the
 * start of the first occurrence of `at` inside it (the start of `text` without `at`). Never a column.
 */
export interface FixtureSite {
  /** File relative to the fixture root, with `/` separators. */
  readonly file: string
  /** Text that occurs exactly once in the file. */
  readonly text: string
  /** The part of `text` the position is on (default: all of it, so its start). */
  readonly at?: string
}

/** A symbol the outline of a file must hold: its name and kind, and some of its children. */
export interface FixtureSymbol {
  readonly name: string
  readonly kind: LspSymbolKind
  readonly children?: ReadonlyArray<{ readonly name: string; readonly kind: LspSymbolKind }>
}

/** The id of each check the kit runs against a fixture record (see {@link ConformanceFixture.limits}). */
export type ConformanceCheckId =
  | 'definition'
  | 'definitionUtf16'
  | 'declaration'
  | 'typeDefinition'
  | 'implementation'
  | 'references'
  | 'hover'
  | 'hoverNonAscii'
  | 'signatureHelp'
  | 'completion'
  | 'prepareRename'
  | 'rename'
  | 'format'
  | 'documentSymbols'
  | 'diagnostics'
  | 'inlayHints'
  | 'codeActions'
  | 'resolveCodeAction'
  | 'workspaceSymbols'
  | 'callHierarchy'
  | 'typeHierarchy'

/**
 * Where things are in one language's fixture workspace, by text: what the conformance kit needs to hold a
 * provider for that language to the contract. Every check reads only the fields it names; a check whose
 * fields the record leaves out is skipped, naming the field, and never passes.
 */
export interface ConformanceFixture {
  /** The fixture's language, as the protocol names it (`typescript`, `python`, `go`, `rust`). */
  readonly languageId: string
  /** The fixture folder; every run works on a fresh copy of it. */
  readonly dir: string
  /**
   * A source file of the fixture: read back through the provider's workspace, asked with an aborted signal,
   * and the folder and extension of the missing file the kit asks about.
   */
  readonly main: string
  /** A call of a function (`use`) and the function's declaration: definition and declaration land on it. */
  readonly definition?: { readonly use: FixtureSite; readonly declaration: FixtureSite }
  /**
   * A use of an identifier with non-ASCII letters, after a character outside the Basic Multilingual Plane on
   * the same line (so UTF-16, UTF-8 and code-point columns all differ), its declaration, and its name.
   */
  readonly nonAscii?: { readonly use: FixtureSite; readonly declaration: FixtureSite; readonly name: string }
  /** A variable (`use`) and the declaration of its type. */
  readonly typeDefinition?: { readonly use: FixtureSite; readonly type: FixtureSite }
  /** An interface, trait or base class (`type`, on its name) and each of its implementations. */
  readonly implementation?: { readonly type: FixtureSite; readonly implementations: ReadonlyArray<FixtureSite> }
  /** A declaration and its name: references must include every whole-word occurrence of `word` in the fixture. */
  readonly references?: { readonly declaration: FixtureSite; readonly word: string }
  /** A site whose hover must include every string of `includes` (the name and its type, say). */
  readonly hover?: { readonly at: FixtureSite; readonly includes: ReadonlyArray<string> }
  /** A position inside a call's arguments, and text the active signature's label holds (a parameter name). */
  readonly signatureHelp?: { readonly at: FixtureSite; readonly label: string }
  /** A position after `value.`, and member names completion must offer there (bare names, without `()`). */
  readonly completion?: { readonly at: FixtureSite; readonly labels: ReadonlyArray<string> }
  /** A symbol to rename (its declaration), its name (every whole-word occurrence is renamed) and a valid new name. */
  readonly rename?: { readonly symbol: FixtureSite; readonly name: string; readonly newName: string }
  /** A keyword: prepareRename must refuse it, with a reason. */
  readonly keyword?: FixtureSite
  /** A badly formatted line: formatting its file must edit it. */
  readonly unformatted?: FixtureSite
  /** A file and symbols its outline must hold. */
  readonly documentSymbols?: { readonly file: string; readonly symbols: ReadonlyArray<FixtureSymbol> }
  /** The line of the fixture's one type error (the file's diagnostics must report an error on it). */
  readonly typeError?: FixtureSite
  /** A file whose inlay hints must lie inside it. */
  readonly inlayHints?: { readonly file: string }
  /**
   * Where a code action is offered (an empty range at the site), the kinds to ask for, and text its title
   * holds (case-insensitive; default: any action). Resolving it must compute an edit of the site's file.
   */
  readonly codeAction?: { readonly at: FixtureSite; readonly only?: ReadonlyArray<string>; readonly title?: string }
  /** A workspace symbol query and a symbol it must find: name, kind and file. */
  readonly workspaceSymbol?: { readonly query: string; readonly name: string; readonly kind: LspSymbolKind; readonly file: string }
  /** A function (`callee`, on its name, called `name`), a function calling it (`caller`) and the line of that call. */
  readonly callHierarchy?: { readonly callee: FixtureSite; readonly name: string; readonly caller: string; readonly callSite: FixtureSite }
  /** A type (`type`, on its name, called `name`), one of its supertypes, and the supertype's subtypes. */
  readonly typeHierarchy?: {
    readonly type: FixtureSite
    readonly name: string
    readonly supertype: string
    readonly subtypes: ReadonlyArray<string>
  }
  /**
   * Checks the language's servers cannot pass, each with the reason: they are reported skipped with it. For
   * real server differences only — a check that merely lacks its fields is skipped anyway.
   */
  readonly limits?: { readonly [id in ConformanceCheckId]?: string }
}

/** The fields of a record a check can read. */
export type FixtureField = Exclude<keyof ConformanceFixture, 'languageId' | 'dir' | 'main' | 'limits'>

/**
 * A fixture record as its language's folder holds it (`languages/<id>/fixture.ts`): the fixture folder's
 * name under the kit's `fixtures/` instead of its path, and no language id (the folder's). The kit places it.
 */
export type ConformanceFixtureSource = Omit<ConformanceFixture, 'languageId' | 'dir'> & {
  /** The fixture folder's name under the kit's `fixtures/` (`conformance-python`). */
  readonly folder: string
}
