// Runs the real lsp-local host against the fault server, configured the way a user would: a profile in
// the host config whose command is `node server.mjs --scenario …`. Each run gets its own workspace root
// and log; disposing a run disposes the host and waits (on lifeline events) for every fault server it
// started to be gone.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, afterEach, beforeAll, expect } from 'vitest'

import {
  isLspError,
  LspError,
  type LspLocation,
  type LspOperation,
  type LspPosition,
  type LspProvider,
  type LspQueryRequest,
  type LspRequestByOperation,
  type LspResultFor,
} from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost, type ServerProfile } from '../../src/index.js'
import { FaultLog, faultServerPath, killLeftovers, Lifelines, positionOf, scratchDir, wordPositions } from './harness.js'

export const mainText = [
  'import { greet } from "./lib"',
  '',
  'function main() {',
  '  greet("world") // FIXME',
  '  return greet',
  '}',
  '',
].join('\n')
export const libText = ['export function greet(name) {', '  return name   ', '}', ''].join('\n')

/** The request of one operation without the root, which the run fills in. */
export type FaultRequest<O extends LspOperation = LspOperation> = { readonly operation: O } & Omit<LspRequestByOperation[O], 'root'>

export interface FaultRunOptions {
  /** Fault-server arguments after the log and lifeline, e.g. `['--scenario', 'hang']`. */
  readonly server: ReadonlyArray<string>
  /** Host config (deadlines, limits) for this run. */
  readonly config?: Omit<HostOptions, 'profiles' | 'builtins'>
  /** Profile fields beyond command, args and extensions (readiness, settings, operations…). */
  readonly profile?: Partial<ServerProfile>
  /** Hand the profile and config to the host as a JSON config file (as a user would) instead of inline. */
  readonly viaConfigFile?: boolean
}

/** One suite's scratch folder and lifeline socket, shared by its runs. */
export class FaultSuite {
  private count = 0
  readonly runs: FaultRun[] = []

  private constructor(
    readonly dir: string,
    readonly lifelines: Lifelines,
    private readonly removeDir: () => Promise<void>,
  ) {}

  static async open(prefix: string): Promise<FaultSuite> {
    const scratch = await scratchDir(prefix)
    return new FaultSuite(realpathSync(scratch.path), await Lifelines.open(scratch.path), scratch.dispose)
  }

  /** A fresh workspace with the fixture files and a host whose only profile is the fault server. */
  async start(options: FaultRunOptions): Promise<FaultRun> {
    const index = this.count++
    const root = nodePath.join(this.dir, `workspace-${index}`)
    mkdirSync(root)
    writeFileSync(nodePath.join(root, 'main.fault'), mainText)
    writeFileSync(nodePath.join(root, 'lib.fault'), libText)
    const log = new FaultLog(nodePath.join(this.dir, `log-${index}.jsonl`))
    const profile: ServerProfile = {
      id: 'fault',
      command: process.execPath,
      args: [faultServerPath, '--log', log.path, '--lifeline', this.lifelines.path, ...options.server],
      extensions: { '.fault': 'fault' },
      operations: ['definition', 'references', 'hover', 'documentSymbols', 'workspaceSymbols', 'diagnostics'],
      ...options.profile,
    }
    let host: LocalHost
    if (options.viaConfigFile === true) {
      const configFile = nodePath.join(this.dir, `config-${index}.json`)
      writeFileSync(configFile, JSON.stringify({ ...options.config, profiles: [profile] }, null, 2))
      host = await createLocalHost({ configFile, builtins: false })
    } else {
      host = await createLocalHost({ ...options.config, builtins: false, profiles: [profile] })
    }
    await host.openWorkspace(root, { trust: 'trusted' })
    const provider = host.providers.find((p) => p.id === 'local:fault')
    if (provider === undefined)
      throw new Error(`the host has no local:fault provider (it has: ${host.providers.map((p) => p.id).join(', ')})`)
    const run = new FaultRun(root, log, host, provider, this.lifelines)
    this.runs.push(run)
    return run
  }

  /** Every pid any run's fault servers logged. */
  pids(): number[] {
    return this.runs.flatMap((run) => run.log.pids())
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.runs.map((run) => run.dispose()))
    killLeftovers(this.pids())
    await this.lifelines.close()
    await this.removeDir()
  }
}

export class FaultRun {
  readonly main: string
  readonly lib: string
  readonly rootUri: string
  private disposed: Promise<number[]> | undefined

  constructor(
    readonly root: string,
    readonly log: FaultLog,
    readonly host: LocalHost,
    readonly provider: LspProvider,
    private readonly lifelines: Lifelines,
  ) {
    this.main = nodePath.join(root, 'main.fault')
    this.lib = nodePath.join(root, 'lib.fault')
    this.rootUri = pathToFileURL(root).href
  }

  /** Where `greet` is called in main.fault: the cursor for definition, references and hover. */
  greetCall(): { path: string; position: LspPosition } {
    return { path: this.main, position: positionOf(mainText, 'greet("world")', 1, 2) }
  }

  /** The range of `greet`'s name in its declaration in lib.fault. */
  greetDeclaration(): { path: string; range: { start: LspPosition; end: LspPosition } } {
    return { path: this.lib, range: { start: positionOf(libText, 'greet'), end: positionOf(libText, 'greet', 1, 'greet'.length) } }
  }

  /** Asks the host's provider directly, so nothing between the test and the host rewrites its answers or errors. */
  query<O extends LspOperation>(request: FaultRequest<O>, signal: AbortSignal = new AbortController().signal): Promise<LspResultFor<O>> {
    const full = { ...request, root: this.root, languageId: 'fault' } as unknown as LspQueryRequest & { operation: O; languageId: string }
    return this.provider.query(full, signal) as unknown as Promise<LspResultFor<O>>
  }

  /** Runs a query that must fail; resolves with its error, which must be an LspError. */
  async failure(request: FaultRequest, signal?: AbortSignal): Promise<LspError> {
    let result: unknown
    try {
      result = await this.query(request, signal)
    } catch (error) {
      if (!isLspError(error)) throw new Error(`expected an LspError, the host threw ${String(error)}`, { cause: error })
      return error
    }
    throw new Error(`expected a typed error for ${request.operation}, the host answered ${JSON.stringify(result).slice(0, 400)}`)
  }

  /** The pids of this run's fault servers, in start order. */
  pids(): number[] {
    return this.log.pids()
  }

  /**
   * Disposes the host, then waits for each fault server's lifeline to close. Resolves with the pids that
   * were still alive after the deadline (killed here so they cannot outlive the suite).
   */
  dispose(deadlineMs = 20_000): Promise<number[]> {
    this.disposed ??= (async () => {
      await this.host.dispose()
      const pids = this.pids()
      const outcomes = await Promise.allSettled(pids.map((pid) => this.lifelines.exited(pid, deadlineMs)))
      const leaked = pids.filter((_, index) => outcomes[index]?.status === 'rejected')
      killLeftovers(leaked)
      return leaked
    })()
    return this.disposed
  }
}

/**
 * Registers the suite hooks every host fault test file uses: one FaultSuite per file, and after each test
 * the run's host disposed with every fault server it started proven gone (the test fails otherwise).
 */
export function useFaultSuite(prefix: string): { suite: () => FaultSuite; start: (options: FaultRunOptions) => Promise<FaultRun> } {
  let suite: FaultSuite | undefined
  let current: FaultRun | undefined
  beforeAll(async () => {
    suite = await FaultSuite.open(prefix)
  })
  afterEach(async () => {
    const run = current
    current = undefined
    if (run !== undefined) expect(await run.dispose(), 'fault servers alive after host.dispose()').toEqual([])
  }, 60_000)
  afterAll(async () => {
    await suite?.close()
  }, 60_000)
  const opened = () => {
    if (suite === undefined) throw new Error('the fault suite is not open yet (use it inside a test)')
    return suite
  }
  return {
    suite: opened,
    start: async (options) => {
      current = await opened().start(options)
      return current
    },
  }
}

/** Asserts a definition answer is the real one: greet's declaration in lib.fault, nothing else. */
export function expectGreetDefinition(run: FaultRun, locations: ReadonlyArray<LspLocation>): void {
  expect(locations.map((l) => ({ path: l.path, range: l.range }))).toEqual([run.greetDeclaration()])
}

/** Every whole-word `greet` in both fixture files, sorted by place: the correct references answer. */
export function greetReferences(run: FaultRun): { path: string; start: LspPosition }[] {
  return [
    ...wordPositions(libText, 'greet').map((start) => ({ path: run.lib, start })),
    ...wordPositions(mainText, 'greet').map((start) => ({ path: run.main, start })),
  ].sort(byPlace)
}

/** Orders places by path, line, character. */
export function byPlace(a: { path: string; start: LspPosition }, b: { path: string; start: LspPosition }): number {
  return a.path.localeCompare(b.path) || a.start.line - b.start.line || a.start.character - b.start.character
}
