import type { LspProvider, LspWorkspace } from '../provider.js'
import type { LspOperation } from '../vocabulary.js'
import type { ConformanceCheckId, ConformanceFixture } from './fixture-record.js'

// The conformance kit's public shapes: what it is given and what it reports.

/** What a provider factory hands the kit for one fixture workspace. */
export interface ConformanceSubject {
  readonly provider: LspProvider
  /** The backend's workspace for the root, when it has one (checked for reads and containment). */
  readonly workspace?: LspWorkspace
  /** Stops whatever the factory started. */
  dispose?(): Promise<void> | void
}

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** Builds the provider under test for the fixture copy at `root`. */
  readonly setup: (root: string) => Promise<ConformanceSubject> | ConformanceSubject
  /** Deadline of each check, in ms (default 60 000). */
  readonly checkTimeoutMs?: number
  /** The language fixture to run on (default: the TypeScript record the kit ships, {@link typeScriptFixture}). */
  readonly fixture?: ConformanceFixture
  /**
   * A copy of the record's folder elsewhere (the record's needles still apply), e.g. shipped beside a bundle.
   * Prefer `fixture: { ...record, dir }`.
   */
  readonly fixtureDir?: string
}

/** The outcome of one check. */
export interface ConformanceCheck {
  /** Which of the record-driven checks this is (absent for the kit's own contract checks). */
  readonly id?: ConformanceCheckId
  readonly name: string
  readonly operation?: LspOperation
  readonly status: 'passed' | 'failed' | 'skipped'
  readonly message: string
}

/** The kit's report: every check with its outcome. */
export interface ConformanceReport {
  readonly providerId: string
  /** The language of the fixture record it ran on. */
  readonly languageId: string
  readonly passed: boolean
  readonly checks: ReadonlyArray<ConformanceCheck>
  readonly counts: { readonly passed: number; readonly failed: number; readonly skipped: number }
}
