import type { LspService } from '@codeseam/lsp'

/**
 * What a language's diagnostics cannot see (`LspLanguageFacts.diagnosticsLimit`, e.g. rust-analyzer without
 * `cargo check`), looked up once for every tool that quotes it: `code_diagnostics` next to its counts, mutation
 * receipts next to theirs, so "no problems" is never read as "the compiler agrees".
 */

/** One language's diagnostics limit: the checks its server does not run, and how to get them. */
export interface LanguageDiagnosticsLimit {
  /** The language as people name it (`Rust`). */
  readonly language: string
  /** What is not checked and how to check it (the backend's words). */
  readonly limit: string
}

/** The limits of the languages of `paths` (absolute), each once, in the order first met. */
export function languageDiagnosticsLimits(lsp: LspService, paths: Iterable<string>): LanguageDiagnosticsLimit[] {
  const limits = new Map<string, LanguageDiagnosticsLimit>()
  const languages = new Set<string>()
  for (const path of paths) {
    const owner = lsp.providerFor(path)
    if (owner === undefined || languages.has(owner.languageId)) continue
    languages.add(owner.languageId)
    const facts = lsp.languageFacts(owner.languageId)
    if (facts?.diagnosticsLimit === undefined) continue
    const key = `${facts.label}\0${facts.diagnosticsLimit}`
    if (!limits.has(key)) limits.set(key, { language: facts.label, limit: facts.diagnosticsLimit })
  }
  return [...limits.values()]
}

/** A limit as one line of text: `Rust: rust-analyzer's own analysis only …`. */
export function quoteDiagnosticsLimit(limit: LanguageDiagnosticsLimit): string {
  return `${limit.language}: ${limit.limit}`
}
