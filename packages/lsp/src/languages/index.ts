import * as nodePath from 'node:path'

import { extensionOf } from '../paths.js'
import { builtInLanguages } from './list.js'
import { braceDeclarations, slashComments, type LspCommentSyntax, type LspDeclarationSyntax, type LspLanguage } from './language.js'

export { builtInLanguages }

/**
 * The language a path is known by: its whole file name (`Dockerfile`), else its extension (as
 * `extensionOf` reads it). Undefined when no language of the list claims it.
 */
export function languageOfPath(path: string, languages: ReadonlyArray<LspLanguage> = builtInLanguages): LspLanguage | undefined {
  const name = nodePath.basename(path)
  const byName = languages.find((language) => language.fileNames?.includes(name) === true)
  if (byName !== undefined) return byName
  const extension = extensionOf(path)
  return extension === undefined ? undefined : languages.find((language) => language.extensions.includes(extension))
}

/** A language's declaration syntax with the comments it reads (what symbol edits need of a file's language). */
export interface LspDeclarationReading extends LspDeclarationSyntax {
  readonly comments: LspCommentSyntax
}

/** The C family's reading, for files of a language without declaration syntax (or of no known language). */
const braceReading: LspDeclarationReading = { ...braceDeclarations, comments: slashComments }

/** One reading per language, so callers may cache what they derive from it. */
const readings = new WeakMap<LspLanguage, LspDeclarationReading>()

/**
 * How declarations sit in a file's text: its language's declaration syntax and comments, or the C family's
 * (`@`/`#[` decorators, `//` and block comments, braces) when its language states none.
 */
export function declarationReadingOf(path: string, languages: ReadonlyArray<LspLanguage> = builtInLanguages): LspDeclarationReading {
  const language = languageOfPath(path, languages)
  if (language?.declarations === undefined) return braceReading
  let reading = readings.get(language)
  if (reading === undefined) {
    reading = { ...language.declarations, comments: language.comments }
    readings.set(language, reading)
  }
  return reading
}

/** Files whose folder is a package or module, of every language (impact's module grouping). */
export const manifestNames: ReadonlyArray<string> = builtInLanguages.flatMap((language) => language.manifests ?? [])
