/**
 * How the user selects their default Python outside any project: an activated virtual environment and the
 * version managers' own settings (pyenv, asdf, mise). Untrusted roots read these from the host's
 * environment only to find the interpreter the user would get outside the workspace (python-interpreter.ts);
 * they are deliberately NOT added to {@link serverEnvironment}: pyright gets the chosen interpreter as an
 * absolute `python.pythonPath`, so it needs none of them, and its environment stays the minimal one (plus
 * `PYENV_VERSION=system`, pinned by trust.ts).
 */
export const pythonSelectionVariables: ReadonlyArray<string> = [
  'VIRTUAL_ENV',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'PYENV_DIR',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'ASDF_CONFIG_FILE',
  'ASDF_PYTHON_VERSION',
  'MISE_DATA_DIR',
  'MISE_CONFIG_DIR',
  'MISE_PYTHON_VERSION',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
]

/** The user's {@link pythonSelectionVariables} from the host's environment (only those that are set). */
export function pythonSelectionEnvironment(source: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of pythonSelectionVariables) {
    const value = source[name]
    if (value !== undefined && value !== '') env[name] = value
  }
  return env
}
