/**
 * Arranges the fake VS Code window for a unit test: real folders and files on disk in a temp dir, the
 * TypeScript language contribution installed, and helpers that find positions by text.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { TextLines, type LspPosition } from '@codeseam/lsp'
import * as vscode from 'vscode'

import { host } from '../fake-vscode/host.js'
import { typescriptBasics } from '../conformance/typescript-language.js'

export interface TestWindow {
  /** Canonical folder roots, in the order given. */
  readonly roots: ReadonlyArray<string>
  readonly root: string
  /** Absolute path of a file in the first (or given) root. */
  path(relative: string, rootIndex?: number): string
  /** Position of `needle` (its first occurrence, moved by `offset`) in the current buffer or file text. */
  at(path: string, needle: string, offset?: number): LspPosition
  /** A genuine VS Code Range for `needle` in `path`. */
  rangeOf(path: string, needle: string): vscode.Range
  /** Keeps an event subscription a test made (playing an extension) until the window closes, so it cannot leak into later tests. */
  whileOpen(subscription: { dispose(): unknown }): void
  dispose(): Promise<void>
}

const texts = new Map<string, string>()

/** Creates folders (each a map of relative path → text) and opens them as the window's workspace folders. */
export async function openWindow(...folders: ReadonlyArray<Record<string, string>>): Promise<TestWindow> {
  host.reset()
  host.extensions = [typescriptBasics]
  const base = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-vscode-')))
  const roots: string[] = []
  for (const [index, files] of folders.entries()) {
    const root = nodePath.join(base, `folder${index}`)
    roots.push(root)
    for (const [relative, text] of Object.entries(files)) {
      const full = nodePath.join(root, relative)
      await mkdir(nodePath.dirname(full), { recursive: true })
      await writeFile(full, text)
      texts.set(full, text)
    }
  }
  host.setFolders(roots)
  const textOf = (path: string) => host.documents.get(vscode.Uri.file(path).toString())?.getText() ?? texts.get(path) ?? ''
  const at = (path: string, needle: string, offset = 0): LspPosition => {
    const text = textOf(path)
    const index = text.indexOf(needle)
    if (index < 0) throw new Error(`${path} has no ${JSON.stringify(needle)}`)
    return new TextLines(text).positionAt(index + offset)
  }
  const subscriptions: Array<{ dispose(): unknown }> = []
  return {
    roots,
    root: roots[0]!,
    path: (relative, rootIndex = 0) => nodePath.join(roots[rootIndex]!, relative),
    at,
    rangeOf(path, needle) {
      const start = at(path, needle)
      const end = at(path, needle, needle.length)
      return new vscode.Range(start.line, start.character, end.line, end.character)
    },
    whileOpen(subscription) {
      subscriptions.push(subscription)
    },
    async dispose() {
      for (const subscription of subscriptions.splice(0)) subscription.dispose()
      host.reset()
      await rm(base, { recursive: true, force: true })
    },
  }
}

/** Plays a language extension's answer to one built-in command; returns the calls it received. */
export function answer(command: string, handler: (...args: any[]) => unknown): Array<unknown[]> {
  const calls: Array<unknown[]> = []
  host.commands.set(command, (...args: unknown[]) => {
    calls.push(args)
    return handler(...args)
  })
  return calls
}
