import { TelemetryAttr, TelemetrySpan, inSpan, type LspSearchCoverage } from '@codeseam/lsp'
import type { Attributes } from '@opentelemetry/api'

import type { ServerProfile } from '../policy/profiles.js'

/**
 * A project load a query waits for, as a `codeseam.project.load` span: counts only (files opened and pinned,
 * projects loaded of those found, whether that covered everything).
 */
export function loadSpan(profile: ServerProfile, run: () => Promise<LspSearchCoverage>, opened: () => number): Promise<LspSearchCoverage> {
  return inSpan(
    TelemetrySpan.projectLoad,
    () => ({ [TelemetryAttr.profile]: profile.id }),
    async (span) => {
      const coverage = await run()
      if (span.isRecording()) span.setAttributes(loadAttributes(coverage, opened()))
      return coverage
    },
  )
}

function loadAttributes(coverage: LspSearchCoverage, files: number): Attributes {
  return {
    [TelemetryAttr.files]: files,
    [ProjectLoadAttr.found]: coverage.projectsFound,
    [ProjectLoadAttr.loaded]: coverage.projectsSearched,
    [ProjectLoadAttr.filesNotSearched]: coverage.filesNotSearched ?? 0,
    [TelemetryAttr.incomplete]: !coverage.complete,
  }
}

/** Attribute keys of a project load that TelemetryAttr does not have yet (counts only). */
export const ProjectLoadAttr = {
  found: 'codeseam.projects.found',
  loaded: 'codeseam.projects.loaded',
  filesNotSearched: 'codeseam.files.not_searched',
} as const
