import { normalizeExtension } from '@codeseam/lsp'
import * as vscode from 'vscode'

/** Options for {@link languageExtensions}. */
export interface LanguageExtensionOptions {
  /** Only these language ids (e.g. `['typescript', 'typescriptreact']`); all contributed languages when absent. */
  readonly languages?: ReadonlyArray<string>
  /** Explicit extension → language id entries; they win over what extensions contribute. */
  readonly extensions?: Readonly<Record<string, string>>
}

interface ContributedLanguage {
  readonly id?: unknown
  readonly extensions?: unknown
}

/**
 * The extension → language id map VS Code knows: every installed extension's `contributes.languages`
 * (built-in language support included), filtered to `languages` when given, plus explicit entries. When
 * two languages claim one extension, the first contributor wins, as VS Code does for the default
 * association.
 */
export function languageExtensions(options: LanguageExtensionOptions = {}): Record<string, string> {
  const wanted = options.languages ? new Set(options.languages) : undefined
  const map: Record<string, string> = {}
  for (const extension of vscode.extensions.all) {
    const contributed = (extension.packageJSON as { contributes?: { languages?: unknown } } | undefined)?.contributes?.languages
    if (!Array.isArray(contributed)) continue
    for (const language of contributed as ContributedLanguage[]) {
      if (typeof language.id !== 'string' || !Array.isArray(language.extensions)) continue
      if (wanted && !wanted.has(language.id)) continue
      for (const raw of language.extensions) {
        const key = typeof raw === 'string' ? normalizeExtension(raw) : undefined
        if (key !== undefined && !(key in map)) map[key] = language.id
      }
    }
  }
  for (const [raw, languageId] of Object.entries(options.extensions ?? {})) {
    const key = normalizeExtension(raw)
    if (key !== undefined) map[key] = languageId
  }
  return map
}
