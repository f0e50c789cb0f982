import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { TextLines, type LspPosition } from '@codeseam/lsp'

import type { HostOptions } from '../src/index.js'

const fixturesDir = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), 'fixtures')

const supportDir = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), 'support')

/** Node.js arguments that run `script` of test/support/ from the TypeScript sources, with `args` after it. */
export function supportScriptArgs(script: string, ...args: ReadonlyArray<string>): string[] {
  return [
    '--conditions=@codeseam/source',
    '--import',
    nodePath.join(supportDir, 'register.mjs'),
    nodePath.join(supportDir, script),
    ...args,
  ]
}

/** Host options that run typescript-language-server in place of the native TypeScript server. */
export const typeScriptLanguageServerInstead: HostOptions = {
  profiles: [
    { id: 'typescript', enabled: false },
    { id: 'typescript-language-server', enabled: true },
  ],
}

/** Copies a fixture project into a fresh temp folder (real files on disk) and returns its canonical path. */
export function copyFixture(name: string): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-${name}-`)))
  cpSync(nodePath.join(fixturesDir, name), root, { recursive: true })
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

/**
 * The position of `needle` in a file, found by text: the `occurrence`-th match (1-based), plus `offset`
 * UTF-16 units into the needle. Fails loudly when the text is missing.
 */
export function positionOf(
  root: string,
  file: string,
  needle: string,
  options: { occurrence?: number; offset?: number } = {},
): LspPosition {
  const text = readFileSync(nodePath.join(root, file), 'utf8')
  let index = -1
  for (let i = 0; i < (options.occurrence ?? 1); i++) {
    index = text.indexOf(needle, index + 1)
    if (index === -1) throw new Error(`"${needle}" (occurrence ${options.occurrence ?? 1}) not found in ${file}`)
  }
  return new TextLines(text).positionAt(index + (options.offset ?? 0))
}

/** The text a range covers in a file. */
export function textAt(path: string, range: { start: LspPosition; end: LspPosition }): string {
  const lines = new TextLines(readFileSync(path, 'utf8'))
  return lines.text.slice(lines.offsetAt(range.start), lines.offsetAt(range.end))
}

/** Every live descendant of a process, from /proc. */
export async function descendantPids(root = process.pid): Promise<number[]> {
  const parents = new Map<number, number>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = await readFile(`/proc/${entry}/status`, 'utf8')
      const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1]
      const state = /^State:\s+(\S)/m.exec(status)?.[1]
      if (ppid !== undefined && state !== 'Z') parents.set(Number(entry), Number(ppid))
    } catch {
      // gone
    }
  }
  const tree = new Set<number>()
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && (ppid === root || tree.has(ppid))) {
        tree.add(pid)
        grew = true
      }
    }
  }
  return [...tree]
}

/** Whether a pid is alive (and not a zombie). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    return /^State:\s+(\S)/m.exec(status)?.[1] !== 'Z'
  } catch {
    return false
  }
}

/**
 * Process-leak check: remembers every process the suite started (descendants seen while it ran) and, after
 * the host is disposed, asserts none is alive.
 */
export class LeakCheck {
  private readonly seen = new Map<number, string>()

  async record(): Promise<void> {
    for (const pid of await descendantPids()) if (!this.seen.has(pid)) this.seen.set(pid, await commandLine(pid))
  }

  /**
   * The recorded processes still alive, each as "pid command line". A SIGKILLed process on a loaded machine
   * can take a moment to be torn down, so a process is a survivor only if it is still alive after
   * `settleMs` (a real leak lives on forever; this waits on /proc, not a fixed sleep).
   */
  async survivors(settleMs = 5_000): Promise<string[]> {
    const until = Date.now() + settleMs
    let alive = await this.alive()
    while (alive.length > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      alive = await this.alive()
    }
    return alive.map((pid) => `${pid} ${this.seen.get(pid) ?? ''}`.trim())
  }

  private async alive(): Promise<number[]> {
    const alive: number[] = []
    for (const pid of this.seen.keys()) if (await isAlive(pid)) alive.push(pid)
    return alive
  }
}

/** A process's command line (for messages), or '' once it is gone. */
async function commandLine(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ').trim().slice(0, 200)
  } catch {
    return ''
  }
}
