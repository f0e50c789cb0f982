import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { packageDir } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'
import { dropFlag, mergeSettings } from '../settings.js'

import { typeScriptExtensions, typeScriptGrammar, typeScriptProjectFiles, typeScriptSettings } from './grammar.js'
import { typeScriptProjectModel } from './project-model.js'

const noTypeHierarchy = { no: 'the server has no type hierarchy' }

/** The native TS 7 server (tsgo). */
export const nativeTypeScriptSupport: SupportTable = codeSupport({
  declaration: { no: 'tsgo does not answer textDocument/declaration' },
  ...typeHierarchy(noTypeHierarchy),
})

let nativeExe: Promise<string | undefined> | undefined

/** The native TypeScript 7 executable from the `typescript-native` alias, via its own lookup (looked up once per process). */
function nativeTypeScriptExe(): Promise<string | undefined> {
  nativeExe ??= (async () => {
    const dir = packageDir('typescript-native')
    if (dir === undefined) return undefined
    try {
      const module = (await import(pathToFileURL(nodePath.join(dir, 'lib', 'getExePath.js')).href)) as { default: () => string }
      return module.default()
    } catch {
      return undefined
    }
  })()
  return nativeExe
}

/** The message for a dependency of this package that is not installed. */
export const missingDependency = (what: string) => `${what} is not installed in @codeseam/lsp-local's dependencies; run pnpm install`

export const typeScriptRecord: LanguageRecord = {
  id: 'typescript',
  order: 10,
  language: 'TypeScript / JavaScript',
  server: 'native TypeScript 7 (`tsc --lsp --stdio`)',
  support: nativeTypeScriptSupport,
  async locate(): Promise<Located> {
    const exe = await nativeTypeScriptExe()
    return exe === undefined
      ? { found: false, command: 'tsc', why: missingDependency('typescript-native (npm:typescript@7.0.2)') }
      : { found: true, command: exe, bundled: true }
  },
  install: { dependency: 'typescript-native', bin: ['tsc'] },
  recognizes: (command, args) => ['tsc', 'tsgo'].includes(nodePath.basename(command)) && args.includes('--lsp'),
  profile: () => ({
    args: ['--lsp', '--stdio'],
    extensions: typeScriptExtensions,
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    settings: typeScriptSettings,
  }),
  sharesRoots: true,
  projectModel: typeScriptProjectModel,
  readiness: 'initialized',
  trust: {
    strip: [],
    why: 'tsgo has no plugin loader; its one workspace-driven execution is automatic type acquisition (npm install for the packages package.json names), and --pprofDir writes where it is told',
    harden(draft) {
      draft.settings = mergeSettings(draft.settings, {
        'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } },
        typescript: { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } },
        javascript: { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } },
      })
      draft.hardening.push('automatic type acquisition (npm install) off')
      if (draft.args.some((a) => /^--?pprofDir\b/.test(a))) {
        draft.args = dropFlag(draft.args, 'pprofDir')
        draft.hardening.push('--pprofDir dropped')
      }
    },
  },
  memory: { kind: 'go' },
  environment: { passed: [] },
  projectFiles: typeScriptProjectFiles,
  grammar: [typeScriptGrammar],
  fixture: 'ts-basic',
  conformance: { language: 'typescript', expect: { skipped: ['declaration'] } },
  notes:
    'every operation but declaration; type hierarchy derived by codeseam (the server has none: [derived operations](docs/lsp-local.md#derived-operations)); every project the server would load (sibling `tsconfig.*.json` configs, reference graphs, files of no project) is loaded for workspace-wide queries — those that can reach the question’s file first, the rest in the background — and each answer says what it searched',
}
