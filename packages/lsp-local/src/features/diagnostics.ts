import { DiagnosticTag } from 'vscode-languageserver-protocol/node'

import type { Feature } from './feature.js'

export const diagnostics = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    // Every server can push diagnostics; pull (textDocument/diagnostic) is used when offered.
    enabledBy: 'always',
    client: {
      textDocument: {
        publishDiagnostics: {
          relatedInformation: true,
          versionSupport: true,
          tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] },
          dataSupport: true,
        },
        diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
      },
      workspace: { diagnostics: { refreshSupport: true } },
    },
    run: {
      byProvider:
        'waits for the pushed or pulled diagnostics of the current version (fileDiagnostics), and for the workspace opens a bounded fair selection of files (ProfileProvider.workspaceDiagnostics)',
    },
  },
} satisfies Feature<'diagnostics'>
