import * as nodePath from 'node:path'

import { builtInFactsFor, isWithin } from '@codeseam/lsp'

import { pythonSelectionEnvironment } from '../../profile/python-selection.js'
import { canonical } from '../../profile/executables.js'
import { codeSupport, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { packageDir } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'
import { isRecord } from '../settings.js'
import { missingDependency } from '../typescript/record.js'

import { projectSitePackages, userPython } from './interpreter.js'
import { pyrightProjectModel } from './project-model.js'

const noTypeHierarchy = { no: 'the server has no type hierarchy' }

// pyright 1.1.414 advertises code actions but only ever returns "create type stub" for an installed
// third-party package without stubs (organize imports exists only as a command): no fixture can hold it to them.
const pyrightCodeActions = { no: 'pyright only offers "create type stub", which no fixture can exercise' }

/** pyright. */
export const pyrightSupport: SupportTable = codeSupport({
  implementation: { no: 'pyright has no textDocument/implementation' },
  ...typeHierarchy(noTypeHierarchy),
  inlayHints: { no: 'pyright has no inlay hints' },
  codeActions: pyrightCodeActions,
  format: { no: 'pyright does not format' },
  resolveCodeAction: pyrightCodeActions,
})

export const pyrightRecord: LanguageRecord = {
  id: 'pyright',
  order: 30,
  language: 'Python',
  server: 'pyright, with ruff beside it',
  support: pyrightSupport,
  async locate(): Promise<Located> {
    const dir = packageDir('pyright')
    const script = dir === undefined ? 'pyright-langserver' : nodePath.join(dir, 'langserver.index.js')
    return dir === undefined
      ? { found: false, command: process.execPath, leadingArgs: [script], why: missingDependency('pyright') }
      : { found: true, command: process.execPath, leadingArgs: [script], bundled: true }
  },
  install: { dependency: 'pyright', bin: ['pyright-langserver'] },
  recognizes: (command, args) => {
    const script = args.find((a) => !a.startsWith('-')) ?? ''
    // basedpyright's own scripts are its record's (it ships a `pyright-langserver` alias too).
    if (/basedpyright/.test(script) || /basedpyright/.test(command)) return false
    return nodePath.basename(command) === 'pyright-langserver' || /pyright[\\/]langserver\.index\.js$/.test(script)
  },
  profile: () => ({
    args: ['--stdio'],
    extensions: { '.py': 'python', '.pyi': 'python' },
    rootMarkers: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg'],
    nestedFoldersSetting: 'python.analysis.extraPaths',
    ownConfig: [{ file: 'pyrightconfig.json' }, { file: 'pyproject.toml', contains: '[tool.pyright' }],
    deferredDiscovery: true,
    // ruff in process: formatting, organize imports, fix-all, quick fixes and lint diagnostics beside pyright's.
    companions: [{ id: 'ruff', operations: ['format', 'codeActions', 'resolveCodeAction', 'diagnostics'] }],
    settings: { python: { analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true } } },
  }),
  projectRoot: 'workspaceFolders',
  sharesRoots: true,
  projectModel: pyrightProjectModel,
  readiness: 'initialized',
  trust: {
    strip: ['PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME'],
    why: 'pyright runs a Python interpreter (python.pythonPath, else python3/python on PATH, with the root as cwd) to learn its search paths; a workspace .python-version or virtual environment would choose it',
    harden(draft, context) {
      const { workspaceRoot } = context
      // pyright runs a Python interpreter (python.pythonPath, else `python3` then `python` on PATH, with the
      // root as cwd) to learn its search paths. We choose it: the interpreter the user would get OUTSIDE the
      // workspace (their activated virtualenv, their version manager's global choice, or `python3` on PATH),
      // found by running the candidate once in a folder outside the workspace, so a workspace
      // .python-version / .tool-versions never selects it; absolute, and never one living in the workspace.
      const selection = context.pythonSelection ?? pythonSelectionEnvironment()
      const found =
        context.pythonInterpreter === undefined
          ? userPython({ workspaceRoot, path: context.safePath, env: draft.env, selection })
          : undefined
      const chosen = context.pythonInterpreter ?? found?.executable
      if (
        chosen !== undefined &&
        (!nodePath.isAbsolute(chosen) || isWithin(workspaceRoot, nodePath.resolve(chosen)) || isWithin(workspaceRoot, canonical(chosen)))
      ) {
        throw context.refuse(
          `would run the Python interpreter ${chosen}, inside the workspace`,
          'choose an interpreter outside the workspace',
        )
      }
      // No interpreter: name one that cannot exist, so pyright's own PATH fallback never runs; it then
      // analyses with its bundled typeshed stubs only.
      const pythonPath =
        chosen === undefined
          ? nodePath.join(nodePath.parse(workspaceRoot).root, 'nonexistent', 'codeseam-no-python', 'python3')
          : nodePath.resolve(chosen)
      const python = isRecord(draft.settings['python']) ? draft.settings['python'] : {}
      const analysis = isRecord(python['analysis']) ? python['analysis'] : {}
      // A project virtual environment inside the workspace is used by path only: its site-packages become
      // extra search paths; its interpreter (a workspace file) never runs.
      const venv = projectSitePackages({
        root: context.root,
        workspaceRoot,
        ...(selection['VIRTUAL_ENV'] === undefined ? {} : { virtualEnv: selection['VIRTUAL_ENV'] }),
        ...(found?.version === undefined ? {} : { version: found.version }),
      })
      const given = Array.isArray(analysis['extraPaths']) ? analysis['extraPaths'] : []
      const extraPaths = [...given, ...venv.paths.filter((path) => !given.includes(path))]
      draft.settings = {
        ...draft.settings,
        python: { ...python, pythonPath, ...(venv.paths.length > 0 ? { analysis: { ...analysis, extraPaths } } : {}) },
      }
      // Pin version managers too, in case anything else resolves `python` through a shim.
      draft.env['PYENV_VERSION'] = 'system'
      draft.hardening.push(`Python interpreter pinned to ${pythonPath}`)
      if (found !== undefined) draft.hardening.push(`Python interpreter chosen outside the workspace (${found.via}, asked in ${found.cwd})`)
      draft.hardening.push('PYENV_VERSION=system')
      if (venv.paths.length > 0)
        draft.hardening.push(`workspace virtual environment read by path, its interpreter never run: ${venv.paths.join(', ')}`)
      if (venv.ignored.length > 0)
        draft.hardening.push(`virtual environment site-packages leaving the workspace ignored: ${venv.ignored.join(', ')}`)
    },
  },
  memory: { kind: 'node' },
  // pyright's interpreter (hence the daemon key) depends on how the user selects their Python; none of it is
  // passed to the server, which gets the chosen interpreter as an absolute python.pythonPath.
  environment: {
    passed: [],
    selects: ['VIRTUAL_ENV', 'CONDA_PREFIX', 'PYENV_ROOT', 'PYENV_VERSION', 'PYENV_DIR', 'PYTHONPATH', 'PYTHONHOME'],
    onPath: /^python3?$/,
  },
  projectFiles: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg'],
  grammar: [builtInFactsFor('python')],
  fixture: 'py-basic',
  conformance: { language: 'python', expect: { skipped: ['inlayHints'] } },
  notes:
    'one server per workspace root, nested `pyproject.toml` / `setup.py` projects as its workspace folders; untrusted roots get the interpreter you would get outside them; formatting, organize imports, fix-all and lint diagnostics come from ruff (in process, your `ruff.toml` / `[tool.ruff]` applied); type hierarchy and implementation (subclasses, overriding methods) derived by codeseam, since pyright has neither; no inlay hints',
}
