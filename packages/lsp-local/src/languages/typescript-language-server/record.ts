import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'

import { canonical, isRegularFile, ownTsserverPath } from '../../profile/executables.js'
import { packageDir } from '../lookup.js'
import { typeScriptProjectModel } from '../typescript/project-model.js'
import type { LanguageRecord, Located } from '../record.js'
import { isRecord } from '../settings.js'
import { typeScriptExtensions, typeScriptGrammar, typeScriptProjectFiles, typeScriptSettings } from '../typescript/grammar.js'
import { missingDependency, nativeTypeScriptSupport } from '../typescript/record.js'

export const typeScriptLanguageServerRecord: LanguageRecord = {
  id: 'typescript-language-server',
  order: 20,
  language: 'TypeScript / JavaScript',
  server: 'typescript-language-server + TypeScript 6',
  // The same minimum set as the native server; it answers declaration through definition.
  support: nativeTypeScriptSupport,
  async locate(): Promise<Located> {
    const tlsDir = packageDir('typescript-language-server')
    const typescriptDir = packageDir('typescript')
    const script = tlsDir === undefined ? 'typescript-language-server' : nodePath.join(tlsDir, 'lib', 'cli.mjs')
    if (tlsDir === undefined || typescriptDir === undefined)
      return {
        found: false,
        command: process.execPath,
        leadingArgs: [script],
        why: missingDependency('typescript-language-server with typescript 6'),
      }
    return {
      found: true,
      command: process.execPath,
      leadingArgs: [script],
      bundled: true,
    }
  },
  install: { dependency: 'typescript-language-server', bin: ['typescript-language-server'] },
  recognizes: (command, args) => {
    const script = args.find((a) => !a.startsWith('-')) ?? ''
    return nodePath.basename(command) === 'typescript-language-server' || /typescript-language-server[\\/]lib[\\/]cli\.mjs$/.test(script)
  },
  profile: () => {
    const typescriptDir = packageDir('typescript')
    return {
      args: ['--stdio'],
      extensions: typeScriptExtensions,
      rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      // The partial syntax server answers `any` and stops definitions at imports: never use it, so every
      // answer comes from the loaded project.
      initializationOptions: {
        tsserver: {
          useSyntaxServer: 'never',
          ...(typescriptDir === undefined ? {} : { path: nodePath.join(typescriptDir, 'lib', 'tsserver.js') }),
        },
        preferences: {
          includeInlayParameterNameHints: 'all',
          includeInlayVariableTypeHints: true,
          includeInlayFunctionLikeReturnTypeHints: true,
        },
      },
      settings: typeScriptSettings,
    }
  },
  sharesRoots: true,
  projectModel: typeScriptProjectModel,
  readiness: 'progressQuiet',
  trust: {
    strip: [],
    why: "an invalid or missing tsserver.path makes the server fork the WORKSPACE's node_modules/typescript; plugins load from locations the options name; automatic typing acquisition runs npm",
    harden(draft, context) {
      const options = isRecord(draft.initializationOptions) ? draft.initializationOptions : {}
      const tsserver = isRecord(options['tsserver']) ? options['tsserver'] : {}
      const given = typeof tsserver['path'] === 'string' ? tsserver['path'] : undefined
      // An invalid or missing tsserver.path makes the server fall back to the WORKSPACE's
      // node_modules/typescript, whose tsserver.js it then forks: the path must be ours and valid.
      const usable =
        given !== undefined &&
        nodePath.isAbsolute(given) &&
        nodePath.basename(given) === 'tsserver.js' &&
        isRegularFile(given) &&
        !isWithin(context.workspaceRoot, canonical(given))
      const path = usable ? given : ownTsserverPath()
      if (path === undefined) {
        throw context.refuse(
          "would fall back to the workspace's own node_modules/typescript because no TypeScript is installed with codeseam",
          'install typescript next to @codeseam/lsp-local',
        )
      }
      const plugins = Array.isArray(options['plugins'])
        ? options['plugins'].filter(
            (p) =>
              !(
                isRecord(p) &&
                typeof p['location'] === 'string' &&
                isWithin(context.workspaceRoot, nodePath.resolve(context.root, p['location']))
              ),
          )
        : []
      const { npmLocation: _npm, ...rest } = options
      const { fallbackPath: _fallback, ...tsserverRest } = tsserver
      draft.initializationOptions = { ...rest, plugins, disableAutomaticTypingAcquisition: true, tsserver: { ...tsserverRest, path } }
      draft.hardening.push(
        "tsserver is codeseam's own TypeScript",
        'automatic typing acquisition (npm) off',
        'workspace plugin locations dropped',
      )
      draft.args = draft.args.filter((a) => a !== '--allowLocalPluginLoads')
    },
  },
  memory: { kind: 'tsserver' },
  environment: { passed: [] },
  projectFiles: typeScriptProjectFiles,
  grammar: [typeScriptGrammar],
  fixture: 'ts-basic',
  notes: 'alternative profile (`{ "id": "typescript-language-server", "enabled": true }` and disable `typescript`)',
  enabled: false,
}
