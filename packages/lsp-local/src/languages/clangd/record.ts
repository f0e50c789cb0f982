import * as nodePath from 'node:path'

import type { SupportTable } from '../../policy/profile-operations.js'
import { words, type LanguageRecord, type Located } from '../record.js'
import { dropFlag } from '../settings.js'

import { clangdMajor, findClangd } from './lookup.js'

const standardTypeHierarchy = { since: 17, why: 'the standard LSP type hierarchy came in clangd 17' }

/** clangd, by major version (14 is Debian 12's). */
export const clangdSupport: SupportTable = {
  definition: true,
  typeDefinition: true,
  declaration: true,
  implementation: true,
  references: true,
  hover: true,
  signatureHelp: true,
  documentSymbols: true,
  workspaceSymbols: true,
  prepareCallHierarchy: true,
  incomingCalls: true,
  outgoingCalls: { since: 20, why: 'outgoing calls came in clangd 20' },
  prepareTypeHierarchy: standardTypeHierarchy,
  supertypes: standardTypeHierarchy,
  subtypes: standardTypeHierarchy,
  diagnostics: true,
  inlayHints: { since: 16, why: 'standard inlay hints came in clangd 16' },
  completion: true,
  codeActions: true,
  prepareRename: true,
  rename: true,
  format: true,
  resolveCodeAction: true,
}

/** Why the clangd profile cannot run, and what to install. */
export const clangdUnavailable =
  'neither clangd nor clangd-NN is on PATH: install it (e.g. `apt-get install -y clangd-19`; type hierarchy needs clangd 17 or newer) to get C/C++ support'

const cKeywords =
  'auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local'
const cppKeywords =
  'alignas alignof and and_eq asm bitand bitor bool catch char8_t char16_t char32_t class compl concept consteval constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export false friend mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast requires static_assert static_cast template this thread_local throw true try typeid typename using virtual wchar_t xor xor_eq'

export const clangdRecord: LanguageRecord = {
  id: 'clangd',
  language: 'C / C++',
  server: 'clangd, when installed: the newest `clangd-NN` on PATH first, then `clangd`',
  support: clangdSupport,
  async locate(): Promise<Located> {
    const clangd = findClangd()
    if (clangd === undefined) return { found: false, command: 'clangd', why: clangdUnavailable }
    const major = await clangdMajor(clangd)
    return { found: true, command: clangd, ...(major === undefined ? {} : { major, version: String(major) }) }
  },
  install: { command: 'apt-get install -y clangd-19', source: 'apt' },
  recognizes: (command) => /^clangd(-\d+)?$/.test(nodePath.basename(command)),
  profile: () => ({
    args: ['--background-index=false', '--log=error'],
    extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
    rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
    // textDocument/clangd.fileStatus tells when clangd has caught up with a document (empty answers are
    // retried until it reports the document idle). The untrusted policy below keeps these options.
    initializationOptions: { clangdFileStatus: true },
    // A workspace's .clangd file can point clangd at arbitrary compiler drivers; untrusted roots ignore it.
    untrusted: { args: ['--background-index=false', '--log=error', '--enable-config=false'] },
  }),
  // One clangd per workspace root: it finds each file's compile_commands.json / compile_flags.txt by walking up
  // from the file, so nested C/C++ projects need no server of their own.
  projectRoot: 'workspace',
  readiness: 'initialized',
  trust: {
    strip: ['CLANGD_FLAGS'],
    why: '--query-driver globs let clangd execute the compilers compile_commands.json names; .clangd files in the tree can change flags and the compiler; CLANGD_FLAGS adds arguments',
    harden(draft) {
      if (draft.args.some((a) => /^--?query-driver\b/.test(a))) draft.hardening.push('--query-driver dropped')
      draft.args = dropFlag(draft.args, 'query-driver').filter((a) => !/^--?enable-config\b/.test(a))
      draft.args.push('--enable-config=false')
      draft.hardening.push('project .clangd config ignored (--enable-config=false)')
    },
  },
  memory: { kind: 'none', why: 'clangd has no heap limit flag; the process-tree memory ceiling applies' },
  environment: { passed: [] },
  projectFiles: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
  grammar: [
    {
      languageIds: ['c'],
      identifier: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u,
      keywords: words(cKeywords),
      comments: { line: ['//'], block: [['/*', '*/']] },
    },
    {
      languageIds: ['cpp'],
      identifier: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u,
      keywords: words(`${cKeywords} ${cppKeywords}`),
      comments: { line: ['//'], block: [['/*', '*/']] },
    },
  ],
  fixture: 'c-basic',
  notes:
    "type hierarchy native from clangd 17 (Debian's plain `clangd` package is 14; older ones get it derived); absent → reported unavailable with what to install",
}
