import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost } from '@codeseam/lsp-local'
import { callTool, toolContext, type AnyTool, type ToolOutcome } from '@codeseam/tool-lsp'

import { mutationTools, MutationSession, type MutationSessionOptions } from '../src/index.js'

const fixturesDir = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), 'fixtures')

/** A fresh copy of a fixture project on disk (canonical path). */
export function copyFixture(name: string): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-mutate-${name}-`)))
  cpSync(nodePath.join(fixturesDir, name), root, { recursive: true })
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

/** One test's world: a fresh fixture copy, a ctx.lsp with the shared host attached, a session and its tools. */
export interface World {
  readonly root: string
  readonly lsp: LspService
  readonly session: MutationSession
  readonly tools: ReadonlyArray<AnyTool>
  read(file: string): string
  call(tool: string, args: unknown): Promise<ToolOutcome>
  dispose(): Promise<void>
}

/** Lock files of tests go to a private folder so parallel suites never contend with real sessions. */
export const testLockDirectory = nodePath.join(tmpdir(), `codeseam-mutate-test-locks-${process.pid}`)

/** Removes this worker's lock folder (suites call it in afterAll; worker processes may not exit normally). */
export function removeTestLocks(): void {
  rmSync(testLockDirectory, { recursive: true, force: true })
}

export async function openWorld(host: LocalHost, fixture: string, options: MutationSessionOptions = { autoApprove: true }): Promise<World> {
  const copy = copyFixture(fixture)
  const lsp = createLsp()
  await host.attach(lsp, [{ root: copy.root, trust: 'trusted' }])
  const session = new MutationSession({ lock: { directory: testLockDirectory }, diagnosticsWaitMs: 30_000, ...options })
  const tools = mutationTools(session)
  return {
    root: copy.root,
    lsp,
    session,
    tools,
    read: (file) => readFileSync(nodePath.join(copy.root, file), 'utf8'),
    call: (name, args) => {
      const tool = tools.find((t) => t.name === name)
      if (tool === undefined) throw new Error(`no tool ${name}`)
      return callTool(tool, args, toolContext(lsp), { maxChars: 200_000 })
    },
    async dispose() {
      await lsp.dispose()
      copy.remove()
    },
  }
}

export function sharedHost(): Promise<LocalHost> {
  return createLocalHost({ requestTimeoutMs: 60_000 })
}

/** A promise with its resolve function, for tests that hold a step open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** The text of a file between two markers found by text (inclusive of `from`, exclusive of `to`). */
export function between(text: string, from: string, to: string): string {
  const start = text.indexOf(from)
  if (start < 0) throw new Error(`"${from}" not found`)
  const end = text.indexOf(to, start + from.length)
  if (end < 0) throw new Error(`"${to}" not found after "${from}"`)
  return text.slice(start, end)
}

/** Number of times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1
}
