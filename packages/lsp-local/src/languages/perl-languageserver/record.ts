import * as nodePath from 'node:path'

import { callHierarchy, codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installedCandidates, type ServerPackage } from '../install.js'
import { codeseamCacheDir, probeVersion } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'

/** Perl::LanguageServer from Debian (2.5.0 in Debian 12): a module the system Perl runs, no executable of its own. */
export const perlServerPackage: ServerPackage = { purl: 'pkg:deb/debian/libperl-languageserver-perl', bin: ['perl'] }

const perlServerInstall = installRecipe('perl-languageserver', perlServerPackage).command

/** The module the interpreter loads, and its entry point. */
const serverModule = 'Perl::LanguageServer'

/**
 * The server with its syntax check replaced by nothing before it starts, for every root. The check runs `perl -c` on
 * every opened or changed document, and `perl -c` runs the document's BEGIN blocks and the `use` of every module it
 * names (the workspace's own, through `use lib`): workspace code. And what it reports cannot be read: it publishes the
 * errors and an empty list for the same document, in hash order (measured: the empty one came last in one start of
 * three). No setting of the server turns the check off.
 */
const serverArgs = [
  `-M${serverModule}`,
  '-e',
  [
    'no warnings q(redefine)',
    `*${serverModule}::Workspace::check_perl_syntax = sub {}`,
    // It builds its index in the background with no word to the client: from `initialize` (sent before its answer)
    // to the end of the first walk of the workspace folders, it reports work-done progress (`$/progress`, written
    // without a slash, which would read as a script path), so readiness waits for the index and an empty answer
    // after it is the answer.
    'my $progress = sub { $_[0]->send_notification({ method => q($) . chr(47) . q(progress), params => { token => q(codeseam-index), value => { kind => $_[1], title => q(indexing) } } }) }',
    `my $handle = \\&${serverModule}::process_req`,
    `*${serverModule}::process_req = sub { $progress->($_[0], q(begin)) if ($_[2]{method} // q()) eq q(initialize); $handle->(@_) }`,
    `my $walk = \\&${serverModule}::Workspace::_parse_dir`,
    'my $depth = 0',
    `*${serverModule}::Workspace::_parse_dir = sub { $progress->($_[1], q(begin)) if $depth++ == 0; my @r = eval { $walk->(@_) }; $progress->($_[1], q(end)) if --$depth == 0; @r }`,
    `${serverModule}::run`,
  ].join('; '),
]

/**
 * Where the server keeps its parse cache: codeseam's cache, never the workspace (its default is the root's
 * `.vscode/perl-lang`, created even when the cache is off). One folder serves every root: the server keys each entry
 * by the source file's absolute path.
 */
const cacheDir = () => codeseamCacheDir('perl-languageserver')

const noWhat = (what: string) => ({ no: `Perl::LanguageServer 2.5 has no ${what}` })

/** Perl::LanguageServer 2.5: definitions and references by name over its index of the workspace, the outline, signatures and `perl -c` diagnostics. */
export const perlServerSupport: SupportTable = codeSupport({
  declaration: noWhat('textDocument/declaration'),
  typeDefinition: { no: 'Perl has no declared types', inLanguage: false },
  implementation: { no: 'Perl has no interfaces to implement', inLanguage: false },
  hover: noWhat('hover'),
  diagnostics: {
    no: 'Perl::LanguageServer reports only what `perl -c` prints, which runs the BEGIN blocks and used modules of the document (workspace code), and publishes those errors and an empty list for the same document in hash order: codeseam turns the check off',
  },
  completion: noWhat('completion'),
  ...callHierarchy(noWhat('call hierarchy')),
  ...typeHierarchy(noWhat('type hierarchy')),
  inlayHints: noWhat('inlay hints'),
  codeActions: noWhat('code actions'),
  resolveCodeAction: noWhat('code actions'),
  prepareRename: noWhat('rename'),
  rename: noWhat('rename'),
  format: { no: 'Perl::LanguageServer formats only a range, by running perltidy from PATH' },
})

/** `perl -MPerl::LanguageServer` prints the module's version (run in the home folder: no workspace is read). */
async function locatePerlServer(): Promise<Located> {
  const tried: string[] = []
  for (const candidate of installedCandidates('perl-languageserver', perlServerPackage)) {
    const version = await probeVersion(
      candidate,
      [`-M${serverModule}`, '-e', `print "$${serverModule}::VERSION\\n"`],
      /^(\d+\.\d+(?:\.\d+)?)$/m,
    )
    if (version !== undefined) return { found: true, command: candidate, version }
    tried.push(candidate)
  }
  const why = tried.length === 0 ? 'no perl on PATH' : `${tried.join(', ')} cannot load ${serverModule}`
  return { found: false, command: 'perl', why: `${why}: install it with \`${perlServerInstall}\`` }
}

/** Perl reads these at start: a preload (`PERL5OPT=-M…`), module paths, a debugger, `.` on @INC. */
const perlVariables = ['PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'PERL_USE_UNSAFE_INC', 'PERLDB_OPTS']

export const perlServerRecord: LanguageRecord = {
  id: 'perl-languageserver',
  order: 195,
  language: 'Perl',
  server: "Perl::LanguageServer 2.5 (Debian's), when installed",
  support: perlServerSupport,
  locate: locatePerlServer,
  install: perlServerPackage,
  recognizes: (command, args) => /^perl[\d.]*$/.test(nodePath.basename(command)) && args.some((a) => a === `-M${serverModule}`),
  profile: () => ({
    args: serverArgs,
    extensions: { '.pl': 'perl', '.pm': 'perl', '.t': 'perl' },
    rootMarkers: ['Makefile.PL', 'Build.PL', 'cpanfile', 'dist.ini'],
    // The `perl` section: without it the server never starts its index (definitions and references stay empty).
    // An empty answer once the index is built is the answer (no diagnostics come to say a document was analysed).
    answersWhenAnalysed: true,
    settings: { perl: { cacheDir: cacheDir(), perlInc: [], ignoreDirs: ['.git', '.svn', '.vscode', 'node_modules'] } },
  }),
  projectRoot: 'workspace',
  // Its index walk is reported as progress (above): ready once it ends.
  readiness: 'progressQuiet',
  trust: {
    strip: perlVariables,
    why: "the server parses Perl with Compiler::Lexer (no code runs), but checks every opened or changed document with `perl -c` (its SyntaxChecker), which runs the BEGIN blocks and `use`d modules of the document, the workspace modules with them: codeseam replaces the check by nothing before the server starts (its only diagnostics, unreadable anyway), and for an untrusted root whatever a profile says (its arguments are codeseam's), `perlInc` is emptied, and PERL5OPT, PERL5LIB, PERLLIB, PERL5DB and PERL_USE_UNSAFE_INC are not passed; its parse cache lives in codeseam's cache, never the workspace's `.vscode/perl-lang`",
    harden(draft) {
      // A user profile may have brought the check back (the bare entry point) for a trusted root: never for this one.
      draft.args = [...serverArgs]
      const perl = (draft.settings['perl'] ?? {}) as Record<string, unknown>
      draft.settings = { ...draft.settings, perl: { ...perl, perlInc: [], cacheDir: cacheDir() } }
      draft.hardening.push('no `perl -c` syntax check whatever the profile says (it runs BEGIN blocks and used modules)', 'perlInc emptied')
    },
  },
  memory: { kind: 'none', why: 'Perl has no heap limit flag; the process-tree memory ceiling applies' },
  environment: { passed: [], onPath: /^perl$/ },
  projectFiles: ['Makefile.PL', 'Build.PL', 'cpanfile', 'dist.ini'],
  grammar: [],
  conformance: {
    language: 'perl',
    limits: {
      references:
        'Perl::LanguageServer answers references from its index by name, each at the start of its line (character 0), and indexes the call `Shapes::describe_shape` under its qualified name: from `sub describe_shape` only that line comes back',
    },
    expect: { runs: ['definition', 'documentSymbols', 'signatureHelp', 'workspaceSymbols'] },
  },
  notes:
    'definitions and signatures by name from its index of the workspace (each at the start of its line), a flat outline of subs, workspace symbols; references only where the index holds the same name; no hover, completion, rename or diagnostics (its `perl -c` check runs BEGIN blocks and used modules: off for every root)',
}
