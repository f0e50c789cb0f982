import type { LanguageRecord } from './record.js'

/*
 * What the servers of the languages around the code (configuration, markup, scripts) share: they read one document
 * at a time and run on Node.js. (What they answer is said once in profile/profile-operations.ts: `documentSupport`.)
 */

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
