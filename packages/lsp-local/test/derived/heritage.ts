// What both type-hierarchy oracles answer, and the Python one's runner (python3 with python_heritage.py).
// Keys: `file:line` (workspace-relative, '/'-separated; 0-based line of the declaration's name) for a
// declaration in the workspace, `?name` for a base that resolves to none (its name as written in the source).
import { spawnSync } from 'node:child_process'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { pythonFolders, workspaceFoldersOf } from '../oracle/oracle.js'

export interface HeritageDeclaration {
  readonly key: string
  readonly file: string
  /** 0-based line of the name (Python: the `class` line). */
  readonly line: number
  readonly name: string
  readonly kind: 'class' | 'interface'
  /** Keys of the declarations its bases resolve to, and `?name` for each unresolved base; sorted. */
  readonly supertypes: ReadonlyArray<string>
  /** Keys of the declarations with a base resolving to this one; sorted. */
  readonly subtypes: ReadonlyArray<string>
}

/** A method overridden in a subclass (Python), with every override in every transitive subclass. */
export interface HeritageOverride {
  readonly key: string
  readonly file: string
  /** 0-based line of the `def`. */
  readonly line: number
  /** `Class.method`. */
  readonly name: string
  readonly method: string
  readonly overriders: ReadonlyArray<string>
}

export interface HeritageOracle {
  readonly declarations: ReadonlyArray<HeritageDeclaration>
  readonly overrides: ReadonlyArray<HeritageOverride>
}

const script = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), 'python_heritage.py')

/**
 * The Python oracle for a workspace: python_heritage.py over every Python file under the root, given codeseam's
 * pyright workspace folders (the root and nested folders with a configuration of their own) and, as extra
 * import roots, the other nested project folders with their `src` (as lsp-local's nested-projects rule lists
 * them for pyright).
 */
export function pythonHeritage(root: string): HeritageOracle {
  const folders = workspaceFoldersOf(root, 'python')
  const plain = pythonFolders(root).filter((folder) => !folders.includes(folder))
  const searchPaths = plain.flatMap((folder) => [folder, nodePath.join(folder, 'src')])
  const result = spawnSync('python3', [script], {
    input: JSON.stringify({ root, folders, searchPaths }),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  })
  if (result.status !== 0) throw new Error(`python_heritage.py failed (${String(result.status ?? result.signal)}): ${result.stderr}`)
  return JSON.parse(result.stdout) as HeritageOracle
}
