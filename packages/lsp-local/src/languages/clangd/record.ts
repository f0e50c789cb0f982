import * as nodePath from 'node:path'

import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, type ServerPackage } from '../install.js'
import type { LanguageRecord, Located } from '../record.js'
import { dropFlag } from '../settings.js'
import { profileExtensions } from '../../profile/files.js'

import { databaseEnvironment, databaseWatch } from './database.js'
import { clangdMajor, findClangd } from './lookup.js'

const standardTypeHierarchy = { since: 17, why: 'the standard LSP type hierarchy came in clangd 17' }

/** clangd, by major version (14 is Debian 12's). */
export const clangdSupport: SupportTable = codeSupport({
  outgoingCalls: { since: 20, why: 'outgoing calls came in clangd 20' },
  ...typeHierarchy(standardTypeHierarchy),
  inlayHints: { since: 16, why: 'standard inlay hints came in clangd 16' },
})

/** clangd from Debian: clangd-19 installs /usr/bin/clangd-19. */
const clangdPackage: ServerPackage = { purl: 'pkg:deb/debian/clangd-19', bin: ['clangd'] }

/** Why the clangd profile cannot run, and what to install. */
export const clangdUnavailable = `neither clangd nor clangd-NN is on PATH: install it (e.g. \`${installRecipe('clangd', clangdPackage).command}\`; type hierarchy needs clangd 17 or newer) to get C/C++ support`

export const clangdRecord: LanguageRecord = {
  id: 'clangd',
  order: 80,
  language: 'C / C++',
  server: 'clangd, when installed: the newest `clangd-NN` on PATH first, then `clangd`',
  support: clangdSupport,
  async locate(): Promise<Located> {
    const clangd = findClangd()
    if (clangd === undefined) return { found: false, command: 'clangd', why: clangdUnavailable }
    const major = await clangdMajor(clangd)
    return { found: true, command: clangd, ...(major === undefined ? {} : { major, version: String(major) }) }
  },
  install: clangdPackage,
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
  // A compile_commands.json with a relative `directory` is read by clangd as naming no file: clangd gets a copy
  // with it resolved against the database's folder, in codeseam's cache, and the copy follows the user's file.
  workspaceEnvironment: (root, _find, profile) => databaseEnvironment(root, profile.args, profileExtensions(profile)),
  layoutWatch: databaseWatch,
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
  environment: { passed: [], onPath: /^clangd(-\d+)?$/ },
  projectFiles: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
  grammar: [builtInFactsFor('c'), builtInFactsFor('cpp')],
  fixture: 'c-basic',
  conformance: {
    language: 'cpp',
    limits: {
      references:
        'clangd finds references only in the files it has indexed, and codeseam runs it with --background-index=false: a .cpp no open file includes (geometry.cpp) is not searched',
      rename:
        'clangd renames across files only from its index, and codeseam runs it with --background-index=false: a .cpp no open file includes (geometry.cpp) is not edited',
    },
    // clangd-19 (Debian's) has no outgoing calls (clangd 20 does), so the call-hierarchy check is not run.
    expect: { skipped: ['callHierarchy', 'references', 'rename'] },
  },
  notes:
    "type hierarchy native from clangd 17 (Debian's plain `clangd` package is 14; older ones get it derived); absent → reported unavailable with what to install",
}
