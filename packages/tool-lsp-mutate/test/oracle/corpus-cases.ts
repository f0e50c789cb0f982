import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { CheckerLanguage } from './checkers.js'

/**
 * The edit-integrity oracle's cases (issue 29): renames of symbols with many cross-file uses and
 * signature-changing replacements, on the real corpora in ../shared/corpora. Targets are found by text.
 */

/** This repository's root (four folders up from test/oracle). */
export function repositoryRoot(): string {
  return nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..')
}

/** The corpora's folder (CODESEAM_CORPORA_DIR, else ../shared/corpora beside the repository), or undefined when it is missing. */
export function corporaFolder(repository = repositoryRoot()): string | undefined {
  const folder = process.env['CODESEAM_CORPORA_DIR'] || nodePath.join(repository, '..', 'shared', 'corpora')
  return existsSync(nodePath.join(folder, 'unpack.sh')) ? folder : undefined
}

/** One corpus unpacked on its own into a fresh temp folder (a copy only this case edits). */
export function unpackCorpus(folder: string, name: string): { root: string; remove: () => void } {
  const dest = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-edit-oracle-${name}-`)))
  // What unpack.sh does for each archive.
  const result = spawnSync('tar', ['-xzf', nodePath.join(folder, `${name}.tar.gz`), '-C', dest], { encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) throw new Error(`unpacking ${name} failed: ${result.stderr}`)
  return { root: realpathSync(nodePath.join(dest, name)), remove: () => rmSync(dest, { recursive: true, force: true }) }
}

/** A rename: the declaration is found as `declaration` in `path`; `name` is the old name on that line. */
export interface RenameCase {
  readonly kind: 'rename'
  readonly corpus: string
  readonly language: CheckerLanguage
  readonly path: string
  readonly declaration: string
  readonly name: string
  readonly newName: string
  readonly why: string
  /** Paths the checker covers, when not the project's own configuration (pyright: `src tests`). */
  readonly checkPaths?: ReadonlyArray<string>
  /** TypeScript: the one project to check (see CheckerOptions.project). */
  readonly checkProject?: string
}

/** A signature change: the declaration of `symbol` (from `from` to the end of `to`) gets `parameters` instead of `oldParameters`. */
export interface SignatureCase {
  readonly kind: 'signature'
  readonly corpus: string
  readonly language: CheckerLanguage
  readonly path: string
  readonly symbol: string
  readonly from: string
  readonly to: string
  readonly oldParameters: string
  readonly parameters: string
  readonly why: string
  readonly checkPaths?: ReadonlyArray<string>
  readonly checkProject?: string
  /** Aim by lines (`path` + `line`..`endLine` of the declaration) instead of by symbol name. */
  readonly aim?: 'line'
}

export type EditCase = RenameCase | SignatureCase

export const editCases: ReadonlyArray<EditCase> = [
  {
    kind: 'rename',
    corpus: 'tanstack-query',
    language: 'typescript',
    path: 'packages/query-core/src/utils.ts',
    declaration: 'export function hashKey(',
    name: 'hashKey',
    newName: 'hashQueryKey',
    why: 'used by 5 more query-core files and re-exported by the package index (`export { hashKey } from ./utils`)',
    checkProject: 'packages/query-core/tsconfig.json',
  },
  {
    kind: 'signature',
    corpus: 'tanstack-query',
    language: 'typescript',
    path: 'packages/query-core/src/utils.ts',
    symbol: 'timeUntilStale',
    from: 'export function timeUntilStale(',
    to: '\n}\n',
    oldParameters: '(updatedAt: number, staleTime?: number)',
    parameters: '(updatedAt: number, staleTime: number | undefined, now: number)',
    why: 'a required parameter; callers in query.ts and queryObserver.ts',
    checkProject: 'packages/query-core/tsconfig.json',
  },
  {
    kind: 'rename',
    corpus: 'flask',
    language: 'python',
    path: 'src/flask/helpers.py',
    declaration: 'def url_for(',
    name: 'url_for',
    newName: 'build_url',
    why: 're-exported from flask/__init__.py (`from .helpers import url_for as url_for`), used as flask.url_for(...) in tests',
    checkPaths: ['src', 'tests'],
  },
  {
    kind: 'signature',
    corpus: 'flask',
    language: 'python',
    path: 'src/flask/helpers.py',
    symbol: 'flash',
    from: 'def flash(',
    to: '\n\n\ndef ',
    oldParameters: '(message: str, category: str = "message")',
    parameters: '(message: str, level: int, category: str = "message")',
    why: 'a required parameter; callers flask.flash(...) in tests',
    checkPaths: ['src', 'tests'],
  },
  {
    kind: 'rename',
    corpus: 'vscode-languageserver-node',
    language: 'typescript',
    path: 'protocol/src/common/messages.ts',
    declaration: 'export class ProtocolRequestType<',
    name: 'ProtocolRequestType',
    newName: 'ProtocolRequestKind',
    why: 'used by 20+ protocol files, re-exported by `export * from ./messages` in api.ts',
  },
  {
    kind: 'signature',
    corpus: 'vscode-languageserver-node',
    language: 'typescript',
    path: 'jsonrpc/src/common/is.ts',
    symbol: 'func',
    from: 'export function func(',
    to: '\n}\n',
    oldParameters: '(value: any)',
    parameters: '(value: any, strict: boolean)',
    why: 'a required parameter; callers Is.func(...) in other jsonrpc files',
  },
  {
    kind: 'rename',
    corpus: 'gorilla-mux',
    language: 'go',
    path: 'mux.go',
    declaration: 'func Vars(',
    name: 'Vars',
    newName: 'RouteVars',
    why: 'exported; used across mux_test.go, doc.go examples and route.go',
  },
  {
    kind: 'signature',
    corpus: 'gorilla-mux',
    language: 'go',
    path: 'mux.go',
    symbol: 'CurrentRoute',
    from: 'func CurrentRoute(',
    to: '\n}\n',
    oldParameters: '(r *http.Request)',
    parameters: '(r *http.Request, strict bool)',
    why: 'a required parameter; callers in mux_test.go',
  },
  {
    kind: 'signature',
    corpus: 'gorilla-mux',
    language: 'go',
    path: 'mux.go',
    symbol: 'CurrentRoute',
    from: 'func CurrentRoute(',
    to: '\n}\n',
    oldParameters: '(r *http.Request)',
    parameters: '(r *http.Request, strict bool)',
    why: 'the same change aimed by its lines: the impact set comes from the symbols declared in them',
    aim: 'line',
  },
  {
    kind: 'rename',
    corpus: 'bytes',
    language: 'rust',
    path: 'src/bytes.rs',
    declaration: 'pub fn copy_from_slice(data: &[u8]) -> Self',
    name: 'copy_from_slice',
    newName: 'from_slice_copy',
    why: 'Bytes::copy_from_slice, used in src and in the integration tests',
  },
  {
    kind: 'rename',
    corpus: 'bytes',
    language: 'rust',
    path: 'src/lib.rs',
    declaration: 'fn panic_advance(',
    name: 'panic_advance',
    newName: 'panic_on_advance',
    why: 'also used inside a macro_rules! body (src/buf/buf_impl.rs), which rust-analyzer neither renames nor references: refused, naming those uses',
  },
]

/** The 1-based line of the first occurrence of `needle` in `text`. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle)
  if (at < 0) throw new Error(`"${needle}" not found`)
  return text.slice(0, at).split('\n').length
}

/** A signature case's declaration in the copy: its text and its 1-based first and last lines. */
export function declarationOf(root: string, c: SignatureCase): { text: string; line: number; endLine: number } {
  const text = readFileSync(nodePath.join(root, c.path), 'utf8')
  const start = text.indexOf(c.from)
  const end = text.indexOf(c.to, start)
  if (start < 0 || end < 0) throw new Error(`${c.from} … ${JSON.stringify(c.to)} not found in ${c.path}`)
  const stop = c.to.startsWith('\n}') ? end + 2 : end
  const declaration = text.slice(start, stop)
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length
  return { text: declaration, line: lineAt(start), endLine: lineAt(stop) }
}

/** The replacement text of a signature case, from the declaration as it is in the copy. */
export function signatureText(root: string, c: SignatureCase): string {
  const declaration = declarationOf(root, c).text
  if (!declaration.includes(c.oldParameters)) throw new Error(`${c.oldParameters} not in ${c.symbol}`)
  return declaration.replace(c.oldParameters, c.parameters)
}
