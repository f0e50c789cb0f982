import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installedFolders, type ServerPackage } from '../install.js'
import { absolutePathEntries, executablesNamed, probeVersion } from '../lookup.js'
import { pyrightRecord } from '../pyright/record.js'
import type { LanguageRecord, Located } from '../record.js'

/** The ty release `codeseam install ty` puts in codeseam's cache (PyPI, a single native binary). */
export const tyVersion = '1.0.0'

/** ty from PyPI, into codeseam's cache. */
export const tyPackage: ServerPackage = { purl: `pkg:pypi/ty@${tyVersion}`, bin: ['ty'] }

export const tyInstall = installRecipe('ty', tyPackage).command

const noFormat = { no: 'ty does not format (ruff, beside it, does)' }
const quickFixesUntested = {
  no: 'ty offers quick fixes; codeseam does not offer them until a test holds it to them (ruff, beside it, answers code actions)',
}

/** ty: Astral's type checker; every navigation operation, type hierarchy and inlay hints of its own. */
export const tySupport: SupportTable = codeSupport({
  codeActions: quickFixesUntested,
  format: noFormat,
  resolveCodeAction: quickFixesUntested,
})

async function locateTy(): Promise<Located> {
  const cached = nodePath.join(...installedFolders('ty', tyPackage), 'ty')
  if (existsSync(cached)) return { found: true, command: cached, version: tyVersion }
  // A `ty` on PATH is ty only if it says so (`ty 1.0.0`).
  for (const candidate of executablesNamed('ty', absolutePathEntries())) {
    const version = await probeVersion(candidate, ['--version'], /^ty (\S+)/)
    if (version !== undefined) return { found: true, command: candidate, version }
  }
  return {
    found: false,
    command: cached,
    why: `ty is neither in ${nodePath.dirname(cached)} nor on PATH: install it with \`${tyInstall}\``,
  }
}

/**
 * ty (PyPI): an alternative to pyright for Python, off until a user turns it on (and turns pyright off). It reads the
 * workspace's Python files, its `ty.toml` / `[tool.ty]` and a virtual environment's site-packages by path; it runs
 * no interpreter and no workspace code (ty.test.ts holds it to that).
 */
export const tyRecord: LanguageRecord = {
  id: 'ty',
  order: 50,
  language: 'Python',
  server: `ty (PyPI \`ty\` ${tyVersion}), with ruff beside it`,
  support: tySupport,
  locate: locateTy,
  install: tyPackage,
  recognizes: (command, args) => nodePath.basename(command) === 'ty' && args[0] === 'server',
  profile: () => ({
    args: ['server'],
    extensions: { '.py': 'python', '.pyi': 'python' },
    rootMarkers: ['pyproject.toml', 'ty.toml', 'setup.py', 'setup.cfg'],
    companions: [{ id: 'ruff', operations: ['format', 'codeActions', 'resolveCodeAction', 'diagnostics'] }],
    settings: { ty: { diagnosticMode: 'openFilesOnly' } },
  }),
  readiness: 'initialized',
  trust: {
    strip: ['VIRTUAL_ENV', 'CONDA_PREFIX', 'PYTHONPATH', 'PYTHONHOME'],
    why: 'ty finds a Python environment by path (VIRTUAL_ENV, a .venv, a python3 on PATH) and reads its site-packages; it never runs the interpreter, and it has no plugins or commands that run code',
    harden(draft) {
      draft.hardening.push(
        'nothing to switch off (ty runs no interpreter and no workspace code); the host variables that choose a Python environment are not passed',
      )
    },
  },
  memory: { kind: 'none', why: 'ty has no heap-size option (the process-tree RSS ceiling applies)' },
  environment: { passed: [], onPath: /^(ty|python3?)$/ },
  projectFiles: ['pyproject.toml', 'ty.toml', 'setup.py', 'setup.cfg'],
  grammar: [builtInFactsFor('python')],
  fixture: 'py-basic',
  conformance: {
    language: 'python',
    limits: {
      completion: 'ty 1.0.0 offers no completion at the start of a member name after `.` (it completes the name typed so far)',
      hoverNonAscii: "ty 1.0.0's hover on a variable shows its type, not its name",
    },
    expect: { skipped: ['completion', 'hoverNonAscii'] },
  },
  notes:
    // The server it replaces, named by its record (its id is what a user disables).
    `alternative to ${pyrightRecord.id} (\`{ "id": "ty", "enabled": true }\` and disable \`${pyrightRecord.id}\`): every navigation operation, type hierarchy and inlay hints of its own; formatting and code actions from ruff beside it`,
  enabled: false,
}
