import type { SupportTable } from '../policy/profile-operations.js'
import type { LanguageRecord } from './record.js'

/*
 * What the servers of the languages around the code (configuration, markup, scripts) share: they read one document
 * at a time, and their languages have no types, calls or implementations. A record states what its server answers;
 * the rest is said here once.
 */

/** An operation the server has that codeseam does not offer until a test holds the server to it. */
export const notYet = { no: 'the server has it; codeseam does not offer it until a test holds it to it' } as const

/**
 * A document language's support table: `language` is how a reason names the files ("YAML has", "stylesheets
 * have"), `server` how it names the server; `answers` decides the rest (every other operation says it is absent).
 */
export function documentLanguageSupport(
  language: { readonly files: string; readonly verb: 'has' | 'have' },
  server: string,
  answers: Partial<SupportTable>,
): SupportTable {
  const none = (what: string) => ({ no: `${language.files} ${language.verb} no ${what}`, inLanguage: false as const })
  const noCodeActions = { no: `${server} offers no code actions` }
  return {
    definition: none('definitions'),
    typeDefinition: none('types'),
    declaration: none('declarations'),
    implementation: none('implementations'),
    references: none('references'),
    hover: { no: `${server} has no hover` },
    signatureHelp: none('signatures'),
    documentSymbols: { no: `${server} has no outline` },
    workspaceSymbols: { no: `${server} outlines one document at a time` },
    prepareCallHierarchy: none('calls'),
    incomingCalls: none('calls'),
    outgoingCalls: none('calls'),
    prepareTypeHierarchy: none('types'),
    supertypes: none('types'),
    subtypes: none('types'),
    diagnostics: { no: `${server} reports no diagnostics` },
    inlayHints: { no: `${server} has no inlay hints` },
    completion: { no: `${server} has no completion` },
    codeActions: noCodeActions,
    prepareRename: none('names to rename'),
    rename: none('names to rename'),
    format: { no: `${server} does not format` },
    resolveCodeAction: { no: `${server} resolves no code actions` },
    ...answers,
  }
}

/**
 * The record parts of a document language's Node.js server: ready once initialized, a Node.js heap, nothing from
 * the environment, no project files or grammar of its own.
 */
export function documentNodeServer(): Pick<LanguageRecord, 'memory' | 'environment' | 'projectFiles' | 'grammar' | 'readiness'> {
  return { readiness: 'initialized', memory: { kind: 'node' }, environment: { passed: [] }, projectFiles: [], grammar: [] }
}

/** The record parts of a Node.js server that runs no workspace code and fetches nothing: nothing to switch off. */
export function inertNodeServer(
  why: string,
): Pick<LanguageRecord, 'trust' | 'memory' | 'environment' | 'projectFiles' | 'grammar' | 'readiness'> {
  return {
    ...documentNodeServer(),
    trust: {
      strip: [],
      why,
      harden(draft) {
        draft.hardening.push('nothing to switch off (the server runs no workspace code)')
      },
    },
  }
}
