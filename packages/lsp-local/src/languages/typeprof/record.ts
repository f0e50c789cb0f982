import * as nodePath from 'node:path'

import { callHierarchy, codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installedCandidates, type ServerPackage } from '../install.js'
import { probeVersion } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'

/**
 * TypeProf from Debian's Ruby 3.1 (`ruby3.1` installs `/usr/bin/typeprof3.1`, TypeProf 0.21.2, a gem bundled with
 * Ruby): the only Ruby language server reachable here (Solargraph and ruby-lsp are on RubyGems only).
 */
export const typeprofPackage: ServerPackage = { purl: 'pkg:deb/debian/ruby3.1', bin: ['typeprof3.1', 'typeprof'] }

const typeprofInstall = installRecipe('typeprof', typeprofPackage).command

const noOutline = { no: 'TypeProf 0.21 has no outline (no textDocument/documentSymbol, no workspace/symbol)' }

/** TypeProf 0.21 in LSP mode: definitions, types, references, completion and signatures from its abstract interpretation of one file. */
export const typeprofSupport: SupportTable = codeSupport({
  declaration: { no: 'TypeProf has no textDocument/declaration (Ruby declares nothing apart from its definition)' },
  typeDefinition: { no: 'TypeProf 0.21 answers textDocument/typeDefinition with nothing (its handler is a stub)' },
  completion: {
    no: 'TypeProf 0.21 completes only right after a `.` that ends the typed text (it puts a marker in place of the dot and analyses again); at a member name already written it answers nothing',
  },
  implementation: { no: 'TypeProf has no textDocument/implementation' },
  hover: { no: 'TypeProf 0.21 has no hover (it shows inferred signatures as code lenses)' },
  documentSymbols: noOutline,
  workspaceSymbols: noOutline,
  ...callHierarchy({ no: 'TypeProf has no call hierarchy' }),
  ...typeHierarchy({ no: 'TypeProf has no type hierarchy' }),
  inlayHints: { no: 'TypeProf 0.21 has no inlay hints' },
  codeActions: { no: 'TypeProf 0.21 offers no code actions' },
  resolveCodeAction: { no: 'TypeProf 0.21 offers no code actions' },
  prepareRename: { no: 'TypeProf has no rename' },
  rename: { no: 'TypeProf has no rename' },
  format: { no: 'TypeProf does not format' },
})

/** `typeprof --version` prints `typeprof 0.21.2` (run in the home folder: it reads nothing of a workspace). */
async function locateTypeprof(): Promise<Located> {
  const tried: string[] = []
  for (const bin of typeprofPackage.bin) {
    for (const candidate of installedCandidates('typeprof', typeprofPackage, { bin })) {
      const version = await probeVersion(candidate, ['--version'], /^typeprof (\d+\.\d+\.\d+)/m)
      if (version !== undefined) return { found: true, command: candidate, version }
      tried.push(candidate)
    }
  }
  const why = tried.length === 0 ? 'neither typeprof3.1 nor typeprof is on PATH' : `${tried.join(', ')} did not answer \`--version\``
  return {
    found: false,
    command: 'typeprof3.1',
    why: `${why}: install Ruby's with \`${typeprofInstall}\` (Debian's Ruby 3.1 ships TypeProf 0.21)`,
  }
}

/**
 * Ruby and RubyGems read these at start: a preload (`RUBYOPT=-r…`), load paths, the gems a `require` resolves to, and
 * `RUBYGEMS_GEMDEPS` (`-` makes RubyGems find the workspace's Gemfile and run it through Bundler before TypeProf starts).
 */
const rubyVariables = [
  'RUBYOPT',
  'RUBYLIB',
  'RUBYGEMS_GEMDEPS',
  'GEM_HOME',
  'GEM_PATH',
  'GEM_SPEC_CACHE',
  'BUNDLE_GEMFILE',
  'BUNDLE_BIN_PATH',
]

export const typeprofRecord: LanguageRecord = {
  id: 'typeprof',
  order: 190,
  language: 'Ruby',
  server: "TypeProf 0.21 (Debian's Ruby 3.1), when installed",
  support: typeprofSupport,
  locate: locateTypeprof,
  install: typeprofPackage,
  recognizes: (command, args) => /^typeprof(\d+\.\d+)?$/.test(nodePath.basename(command)) && args.includes('--lsp'),
  profile: () => ({
    args: ['--lsp', '--stdio'],
    extensions: { '.rb': 'ruby' },
    rootMarkers: ['Gemfile', 'rbs_collection.yaml'],
  }),
  projectRoot: 'workspace',
  readiness: 'initialized',
  // Its commands write typeprof.rbs into the workspace or switch its code lenses: none runs.
  allowedCommands: [],
  trust: {
    strip: rubyVariables,
    why: 'TypeProf never runs the code it reads: it compiles each file to YARV instructions (RubyVM::InstructionSequence.compile, which runs no BEGIN block) and interprets them abstractly, and a `require`/`require_relative` of a workspace file is compiled the same way; what runs is Ruby itself, whose start reads RUBYOPT (`-r` preloads a file), RUBYLIB and the RubyGems variables (RUBYGEMS_GEMDEPS=- loads the workspace Gemfile through Bundler, GEM_PATH chooses the gems whose specifications RubyGems evaluates): none is passed for an untrusted root. It also reads the workspace `rbs_collection.yaml` lock file and the signature folder it names, anywhere on disk: --no-collection',
    harden(draft) {
      if (!draft.args.includes('--no-collection')) draft.args.push('--no-collection')
      draft.hardening.push("the workspace's RBS collection not read (--no-collection)")
    },
  },
  memory: { kind: 'none', why: 'Ruby has no heap limit flag; the process-tree memory ceiling applies' },
  environment: { passed: [], onPath: /^(typeprof(\d+\.\d+)?|ruby(\d+\.\d+)?)$/ },
  projectFiles: ['Gemfile', 'Gemfile.lock', 'rbs_collection.yaml', 'rbs_collection.lock.yaml'],
  grammar: [],
  conformance: {
    language: 'ruby',
    limits: {
      references:
        'TypeProf analyses the open file and what it requires, never the files that require it: from `def describe` in shapes.rb it sees no call (they are in main.rb, which requires shapes.rb)',
    },
    expect: { runs: ['definition', 'diagnostics', 'signatureHelp'] },
  },
  notes:
    "definitions (across `require_relative`), signature help and type-error diagnostics from TypeProf's inference of the open file and what it requires; references only from the files that call; no hover, outline, type definition or rename; never runs the Ruby it reads, and an untrusted root gets no RUBYOPT, RUBYLIB, RubyGems variables or RBS collection",
}
