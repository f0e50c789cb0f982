import { documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledServerRecord, langserversExtractedVersion } from '../bundled.js'
import { inertNodeServer } from '../document-language.js'
import type { LanguageRecord, SymbolNaming } from '../record.js'

import { serveMarkdownClient } from './client.js'

/**
 * vscode-markdown-language-server: a document's headers and link definitions as its outline, links followed to the
 * header or file they name, a header's references across files, broken links.
 */
export const markdownSupport: SupportTable = documentSupport({ files: 'Markdown', verb: 'has' }, 'the Markdown server', {
  definition: true,
  references: true,
  hover: notYet,
  documentSymbols: true,
  workspaceSymbols: {
    no: "the Markdown server lists every header as a workspace symbol; codeseam leaves them out of a workspace symbol search so documentation headers never crowd out code (a file's headers are its outline)",
  },
  diagnostics: true,
  completion: notYet,
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  resolveCodeAction: notYet,
})

/** How each link check reports (VS Code's defaults, with validation on: it is off in VS Code until a user turns it on). */
const validate = {
  enabled: true,
  referenceLinks: { enabled: 'warning' },
  fragmentLinks: { enabled: 'warning' },
  fileLinks: { enabled: 'warning', markdownFragmentLinks: 'inherit' },
  ignoredLinks: [],
  unusedLinkDefinitions: { enabled: 'hint' },
  duplicateLinkDefinitions: { enabled: 'warning' },
}

/**
 * A header as people aim at it: the Markdown server labels it with its markers (`## Setup`); its name is the
 * header's text (`Setup`), which targets it (`Guide.Setup` under `# Guide`). Link definitions (`[faq]`) keep theirs.
 */
export const markdownSymbolName: SymbolNaming = (label, kind) => {
  if (kind !== 'string') return undefined
  const header = /^#{1,6}[ \t]+(.*?)$/.exec(label)
  const text = header?.[1]?.trim()
  return text === undefined || text === '' ? undefined : { name: text }
}

export const markdownRecord: LanguageRecord = {
  id: 'markdown',
  order: 130,
  language: 'Markdown',
  server: `vscode-markdown-language-server (npm \`vscode-langservers-extracted\` ${langserversExtractedVersion})`,
  support: markdownSupport,
  ...bundledServerRecord('vscode-langservers-extracted', 'bin/vscode-markdown-language-server', 'vscode-markdown-language-server'),
  symbolName: markdownSymbolName,
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.md': 'markdown', '.markdown': 'markdown' },
    initializationOptions: { markdownFileExtensions: ['md', 'markdown'] },
    settings: {
      markdown: {
        validate,
        suggest: { paths: { enabled: false, includeWorkspaceHeaderCompletions: 'never' } },
        occurrencesHighlight: { enabled: false },
        preferredMdPathExtensionStyle: 'auto',
        server: { log: 'off' },
      },
    },
  }),
  // It parses nothing and reads no file itself: codeseam answers its markdown/parse and markdown/fs requests.
  serveClient: serveMarkdownClient,
  ...inertNodeServer(
    'the Markdown server runs no workspace code and downloads nothing: it reads every file through the client (codeseam), which answers for the workspace root only (a link out of it is not checked, so never reported broken)',
  ),
  fixture: 'markdown-basic',
  conformance: {
    language: 'markdown',
    // Its link checks are warnings (no type error to find) and it has no formatter.
    expect: { runs: ['definition', 'documentSymbols', 'references'] },
  },
  notes:
    'outline (headers, link definitions), definition and references of header links across files, broken-link diagnostics (warnings); no formatting; headers are kept out of workspace symbol search',
}
