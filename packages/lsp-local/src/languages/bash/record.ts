import { callHierarchy, documentSupport, notYet, type SupportTable } from '../../profile/profile-operations.js'
import { bundledNodeServer, runsBundled } from '../bundled.js'
import { absolutePathEntries, executablesNamed } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'
import { mergeSettings } from '../settings.js'

/** The bash-language-server release codeseam installs. */
export const bashServerVersion = '5.8.1'

/** bash-language-server: outline, definitions and references of functions and variables, ShellCheck, shfmt. */
export const bashSupport: SupportTable = documentSupport({ files: 'shell scripts', verb: 'have' }, 'bash-language-server', {
  definition: true,
  declaration: { no: 'shell scripts have no declarations apart from definitions' },
  references: true,
  hover: true,
  signatureHelp: { no: 'bash-language-server has no signature help' },
  documentSymbols: true,
  workspaceSymbols: notYet,
  ...callHierarchy({ no: 'bash-language-server has no call hierarchy' }),
  diagnostics: true,
  completion: true,
  codeActions: notYet,
  prepareRename: notYet,
  rename: notYet,
  format: true,
})

/** The helper programs the server runs, found on the host's PATH now (absolute: never a workspace's copy). */
function helpers(): { shellcheck?: string; shfmt?: string } {
  const dirs = absolutePathEntries()
  const [shellcheck] = executablesNamed('shellcheck', dirs)
  const [shfmt] = executablesNamed('shfmt', dirs)
  return { ...(shellcheck === undefined ? {} : { shellcheck }), ...(shfmt === undefined ? {} : { shfmt }) }
}

/** The server, and what it cannot answer without ShellCheck (diagnostics) or shfmt (formatting). */
function locateBash(): Located {
  const located = bundledNodeServer('bash-language-server', 'out/cli.js')
  if (!located.found) return located
  const { shellcheck, shfmt } = helpers()
  const lacking = {
    ...(shellcheck === undefined
      ? { diagnostics: 'ShellCheck is not installed: its findings are the diagnostics (apt-get install shellcheck)' }
      : {}),
    ...(shfmt === undefined ? { format: 'shfmt is not installed: it is the formatter (apt-get install shfmt)' } : {}),
  }
  return Object.keys(lacking).length === 0 ? located : { ...located, lacking }
}

export const bashRecord: LanguageRecord = {
  id: 'bash',
  order: 140,
  language: 'Shell (bash, sh, zsh)',
  server: `bash-language-server (npm, ${bashServerVersion}), with ShellCheck and shfmt when installed`,
  support: bashSupport,
  locate: async () => locateBash(),
  install: { dependency: 'bash-language-server', bin: ['bash-language-server'] },
  recognizes: (command, args) => runsBundled(command, args, 'bash-language-server', 'cli.js') || command.endsWith('bash-language-server'),
  profile: () => {
    const { shellcheck, shfmt } = helpers()
    return {
      args: ['start'],
      extensions: { '.sh': 'shellscript', '.bash': 'shellscript', '.zsh': 'shellscript', '.ksh': 'shellscript' },
      fileNames: {
        '.bashrc': 'shellscript',
        '.bash_profile': 'shellscript',
        '.bash_aliases': 'shellscript',
        '.bash_logout': 'shellscript',
        '.profile': 'shellscript',
        '.zshrc': 'shellscript',
        '.zprofile': 'shellscript',
        '.zshenv': 'shellscript',
      },
      interpreters: { bash: 'shellscript', sh: 'shellscript', zsh: 'shellscript', dash: 'shellscript', ksh: 'shellscript' },
      settings: {
        bashIde: {
          // Absolute paths found on the host's PATH now; '' switches a helper off (its operation is then not offered).
          shellcheckPath: shellcheck ?? '',
          shfmt: { path: shfmt ?? '' },
          explainshellEndpoint: '',
          globPattern: '**/*@(.sh|.inc|.bash|.command)',
          backgroundAnalysisMaxFiles: 500,
          logLevel: 'warning',
        },
      },
    }
  },
  // The server analyses nothing (an open file's outline is empty) until it has asked for its `bashIde` settings.
  readiness: 'configured',
  trust: {
    strip: [],
    why: 'bash-language-server runs no workspace code: it parses scripts with tree-sitter, runs the host\'s ShellCheck and shfmt by absolute path (they read `.shellcheckrc` and `.editorconfig`, which select checks and styles, never programs), and for hover runs `bash -c "help WORD"` / `man WORD` only for builtins, reserved words and executables on a PATH with every entry inside the workspace removed; explainshell is off',
    harden(draft) {
      // ShellCheck follows `source` lines to other files; for an untrusted root it lints only the file it is given.
      draft.settings = mergeSettings(draft.settings, { bashIde: { explainshellEndpoint: '', shellcheckExternalSources: false } })
      draft.hardening.push('explainshell off', 'ShellCheck does not follow `source` lines (--external-sources off)')
    },
  },
  memory: { kind: 'node' },
  environment: { passed: [], onPath: /^(shellcheck|shfmt|bash)$/ },
  projectFiles: [],
  grammar: [],
  fixture: 'bash-basic',
  conformance: {
    language: 'shellscript',
    expect: { runs: ['definition', 'diagnostics', 'documentSymbols', 'format', 'hover', 'references'] },
  },
  notes:
    'outline, definitions and references of functions and variables, hover (help/man for builtins and commands), completion; diagnostics from ShellCheck and formatting by shfmt when they are installed (Debian: apt-get install shellcheck shfmt); routes `.sh`, `.bashrc`-style names and extension-less scripts whose `#!` names bash, sh, zsh, dash or ksh',
}
