import { TelemetryAttr, TelemetrySpan, inSpan, telemetryId, type LspSearchCoverage } from '@codeseam/lsp'
import type { Attributes } from '@opentelemetry/api'

import type { ServerProfile } from '../profile/profiles.js'

/**
 * A project load a query waits for, as a `codeseam.project.load` span: counts only (files opened and pinned,
 * projects loaded of those found, whether that covered everything).
 */
export function loadSpan(profile: ServerProfile, run: () => Promise<LspSearchCoverage>, opened: () => number): Promise<LspSearchCoverage> {
  return inSpan(
    TelemetrySpan.projectLoad,
    () => ({ [TelemetryAttr.profile]: telemetryId(profile.id) }),
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
    [TelemetryAttr.projectsFound]: coverage.projectsFound,
    [TelemetryAttr.projectsLoaded]: coverage.projectsSearched,
    [TelemetryAttr.filesNotSearched]: coverage.filesNotSearched ?? 0,
    [TelemetryAttr.incomplete]: !coverage.complete,
  }
}
