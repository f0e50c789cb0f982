import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installedFolders, type ServerPackage } from '../install.js'
import { absolutePathEntries, executablesNamed } from '../lookup.js'
import { pyrightRecord, pyrightSupport } from '../pyright/record.js'
import type { LanguageRecord, Located } from '../record.js'
import { isRecord, mergeSettings } from '../settings.js'

/** The basedpyright release `codeseam install basedpyright` puts in codeseam's cache (npm). */
export const basedPyrightVersion = '1.40.1'

/** basedpyright from the npm registry, into codeseam's cache; its language server script runs with this Node.js. */
export const basedPyrightPackage: ServerPackage = { purl: `pkg:npm/basedpyright@${basedPyrightVersion}`, bin: ['basedpyright-langserver'] }

export const basedPyrightInstall = installRecipe('basedpyright', basedPyrightPackage).command

/** basedpyright: pyright's answers, plus inlay hints (inferred variable, return and call-argument types) and implementations. */
export const basedPyrightSupport: SupportTable = { ...pyrightSupport, implementation: true, inlayHints: true }

async function locateBasedPyright(): Promise<Located> {
  const script = nodePath.join(...installedFolders('basedpyright', basedPyrightPackage), 'langserver.index.js')
  if (existsSync(script)) return { found: true, command: process.execPath, leadingArgs: [script], version: basedPyrightVersion }
  const [onPath] = executablesNamed('basedpyright-langserver', absolutePathEntries())
  if (onPath !== undefined) return { found: true, command: onPath }
  return {
    found: false,
    command: process.execPath,
    leadingArgs: [script],
    why: `basedpyright is neither in ${nodePath.dirname(script)} nor on PATH (basedpyright-langserver): install it with \`${basedPyrightInstall}\``,
  }
}

/** Moves what pyright's trust rule set under `python.analysis` to `basedpyright.analysis`, where basedpyright reads it. */
function asBasedPyright(settings: Record<string, unknown>): Record<string, unknown> {
  const python = isRecord(settings['python']) ? settings['python'] : {}
  const { analysis, ...rest } = python
  if (!isRecord(analysis)) return settings
  return mergeSettings({ ...settings, python: rest }, { basedpyright: { analysis } }) as Record<string, unknown>
}

const pyrightProfile = pyrightRecord.profile({ found: true, command: process.execPath })

/**
 * basedpyright (a pyright fork, npm): an alternative to pyright for Python, off until a user turns it on (and
 * turns pyright off). Its analysis settings live under `basedpyright.analysis`; the interpreter under `python`.
 */
export const basedPyrightRecord: LanguageRecord = {
  ...pyrightRecord,
  id: 'basedpyright',
  order: 40,
  language: 'Python',
  server: `basedpyright (npm \`basedpyright\` ${basedPyrightVersion}), with ruff beside it`,
  support: basedPyrightSupport,
  locate: locateBasedPyright,
  install: basedPyrightPackage,
  recognizes: (command, args) => {
    const script = args.find((a) => !a.startsWith('-')) ?? ''
    return nodePath.basename(command) === 'basedpyright-langserver' || /basedpyright[\\/]langserver\.index\.js$/.test(script)
  },
  profile: () => ({
    ...pyrightProfile,
    nestedFoldersSetting: 'basedpyright.analysis.extraPaths',
    ownConfig: [
      { file: 'pyrightconfig.json' },
      { file: 'pyproject.toml', contains: '[tool.basedpyright' },
      { file: 'pyproject.toml', contains: '[tool.pyright' },
    ],
    settings: asBasedPyright({ ...(pyrightProfile.settings ?? {}) }),
  }),
  environment: { ...pyrightRecord.environment, onPath: /^(basedpyright-langserver|python3?)$/ },
  trust: {
    ...pyrightRecord.trust,
    harden(draft, context) {
      pyrightRecord.trust.harden(draft, context)
      draft.settings = asBasedPyright(draft.settings)
    },
  },
  // pyright's answers plus inlay hints: nothing skipped.
  conformance: { language: 'python', expect: { skipped: [] } },
  notes: `alternative to ${pyrightRecord.id} (\`{ "id": "basedpyright", "enabled": true }\` and disable \`${pyrightRecord.id}\`): ${pyrightRecord.id}'s answers and trust rules, plus inlay hints and its own implementation (subclasses, overrides); analysis settings under \`basedpyright.analysis\``,
  enabled: false,
}
