// `pnpm bench`: every layer against the bare language server, in one run, on generated workspaces and on
// this repository. Prints tables, writes docs/performance.json and regenerates docs/performance.md + .svg.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import { writeDocs } from './docs-writer.js'
import { runWorkspace, type WorkspaceRun } from './run-workspace.js'
import { pythonDefinitionQuery, runColdStarts, type ColdStartCase } from './scenarios/cold-start.js'
import { childProcesses } from './process-memory.js'
import { generatedReadMix, isDerivedOperation, repositoryMixFiles, repositoryReadMix } from './read-mix.js'
import { runDiskChanges } from './scenarios/disk-changes.js'
import { runKeptPages } from './scenarios/kept-pages.js'
import { runLanguages } from './scenarios/languages.js'
import { runManyAgents } from './scenarios/many-agents.js'
import { runMonorepoFirstAnswer } from './scenarios/monorepo-first-answer.js'
import { runRealRepositories } from './scenarios/real-repositories.js'
import { runSdkNoop, runStartup } from './scenarios/startup.js'
import { runTelemetryOverhead } from './scenarios/telemetry-overhead.js'
import { machineInfo, type BenchReport, type MissingMeasurement } from './report.js'
import { printReport } from './table.js'
import { derivedOperationInfos } from './type-hierarchy.js'
import { writePythonWorkspace, writeWorkspace, type GeneratedWorkspace } from './workspace-generator.js'

const { values: options } = parseArgs({
  options: {
    large: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '25' },
    out: { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
    'skip-cold': { type: 'boolean', default: false },
    /** Leave out the "Real repositories" set (the corpora in ../shared/corpora). */
    'skip-real': { type: 'boolean', default: false },
    /** Run only the "Real repositories" set; the report goes to --out (default: a temp file), never to docs/. */
    'real-only': { type: 'boolean', default: false },
    /**
     * Run only these sections (comma-separated): generated (the generated workspaces), repository (this
     * repository), cold, real (the real repositories, with start → first answer through codeseam mcp), monorepo
     * (tanstack-query with its workspace packages linked: spawn → first complete references answer against the
     * bare server primed with one file per project),
     * startup (start-up and the MCP SDK's no-op round trip), many-agents (1, 4 and 8 concurrent sessions with and
     * without the daemon), telemetry (tool calls with codeseam's telemetry on against off, without and with an
     * OpenTelemetry SDK), languages (the Go and Rust rows: gopls and rust-analyzer on their corpora against the
     * bare servers), disk-changes (keeping up with the disk: the hot references question with nothing changed and
     * right after one file changed, was created or deleted, codeseam against the bare server told of it, on
     * TypeScript and pyright), pages (later pages of a 5,001-reference answer cut from the first, against the first
     * page and the bare query). Default: all of them. The docs are written only when every section ran.
     */
    only: { type: 'string' },
    /** Timed pairs (instrumented + plain call) per series of the telemetry section. */
    'telemetry-pairs': { type: 'string', default: '2000' },
    /** Turns per series of the disk-changes section (made even: each change is undone by the next turn). */
    'disk-turns': { type: 'string', default: '20' },
    /** Rounds of the start-up series (each round runs every side once; the issue asks for at least 15). */
    'startup-rounds': { type: 'string', default: '15' },
    /** Timed tools/call round trips of the no-op MCP SDK server. */
    'sdk-calls': { type: 'string', default: '300' },
  },
})

const allSections = [
  'generated',
  'repository',
  'cold',
  'real',
  'monorepo',
  'languages',
  'startup',
  'many-agents',
  'disk-changes',
  'pages',
  'telemetry',
] as const
type Section = (typeof allSections)[number]

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '')
const rounds = Number(options.rounds)
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`)

async function main(): Promise<void> {
  const started = performance.now()
  const machine = machineInfo()
  const scratch = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-bench-')))
  const missing: MissingMeasurement[] = []
  const notes: string[] = []
  const runs: WorkspaceRun[] = []
  try {
    const realOnly = options['real-only']
    const only = options.only?.split(',').map((name) => name.trim())
    const unknown = only?.filter((name) => !(allSections as ReadonlyArray<string>).includes(name)) ?? []
    if (unknown.length > 0) throw new Error(`--only: unknown section ${unknown.join(', ')} (sections: ${allSections.join(', ')})`)
    const selected = (section: Section) =>
      realOnly ? section === 'real' : (only === undefined || only.includes(section)) && !(section === 'cold' && options['skip-cold'])
    const partial = realOnly || only !== undefined
    const sizes = !selected('generated') ? [] : options.large ? [50, 500, 2000] : [50, 500]
    const generated: GeneratedWorkspace[] = []
    for (const size of sizes) generated.push(await writeWorkspace(scratch, `ts-${size}`, size))
    for (const workspace of generated) {
      log(`${workspace.name}: ${workspace.fileCount} modules, hot symbol referenced ${workspace.hotReferenceCount} times`)
      runs.push(await runWorkspace({ workspace, queries: generatedReadMix(workspace), rounds, missing, notes, log }))
    }
    if (selected('repository')) {
      const repositoryFiles = new Map<string, string>()
      for (const file of repositoryMixFiles) repositoryFiles.set(file, await readFile(nodePath.join(repositoryRoot, file), 'utf8'))
      log('this repository')
      runs.push(
        await runWorkspace({
          workspace: {
            name: 'codeseam repo',
            root: repositoryRoot,
            fileCount: 0,
            files: repositoryFiles,
            hotFile: '',
            hotSymbol: '',
            hotReferenceCount: 0,
          },
          queries: repositoryReadMix(repositoryFiles),
          rounds,
          missing,
          notes,
          log,
          repository: true,
        }),
      )
    }

    let coldStart: BenchReport['coldStart'] = []
    if (selected('cold')) {
      log('cold starts')
      const python = await writePythonWorkspace(scratch, 'py-20', 20)
      const typescript = generated[0] ?? (await writeWorkspace(scratch, 'ts-50', 50))
      const tsQuery = generatedReadMix(typescript)[0]!
      const cases: ColdStartCase[] = [
        { profile: 'typescript', workspace: typescript, query: tsQuery, hostProfiles: [] },
        {
          profile: 'typescript-language-server',
          workspace: typescript,
          query: tsQuery,
          hostProfiles: [
            { id: 'typescript', enabled: false },
            { id: 'typescript-language-server', enabled: true },
          ],
        },
        { profile: 'pyright', workspace: python, query: pythonDefinitionQuery(python), hostProfiles: [] },
      ]
      coldStart = await runColdStarts(cases, childProcesses, true)
    }

    let startup: BenchReport['startup']
    let sdkNoop: BenchReport['sdkNoop']
    if (selected('startup')) {
      const workspace = generated[0] ?? (await writeWorkspace(scratch, 'ts-50', 50))
      const startupRounds = Math.max(1, Number(options['startup-rounds']))
      log(`start-up × ${startupRounds} rounds (node -e 0, codeseam --help, codeseam mcp and the no-op SDK server to initialize)`)
      const measured = await runStartup(workspace.root, workspace.name, startupRounds)
      if ('missing' in measured) {
        missing.push({ what: 'start-up', why: measured.missing })
        log(`not measured: start-up: ${measured.missing}`)
      } else startup = measured
      log('the MCP SDK no-op round trip')
      sdkNoop = await runSdkNoop(workspace.root, Math.max(1, Number(options['sdk-calls'])))
    }

    let manyAgents: BenchReport['manyAgents']
    if (selected('many-agents')) {
      // A generated workspace (one tsconfig project): the bare server and every codeseam session find the same
      // answers, so the added latency is codeseam's, not a larger answer (on this repository codeseam loads
      // every project and finds more references than the bare server, which opened one file).
      const workspace = generated.find((w) => w.fileCount === 500) ?? (await writeWorkspace(scratch, 'ts-500', 500))
      log(`many agents on ${workspace.name}: 1, 4 and 8 sessions × (no daemon, daemon with stdio proxies, daemon over HTTP)`)
      manyAgents = await runManyAgents({
        workspace,
        queries: generatedReadMix(workspace).filter((query) => !isDerivedOperation(query.operation)),
        rounds,
        missing,
        notes,
        log,
      })
    }

    let realRepositories: BenchReport['realRepositories']
    let firstAnswer: BenchReport['firstAnswer']
    let wideIncrements: NonNullable<BenchReport['increments']> = []
    if (!options['skip-real'] && selected('real')) {
      log('real repositories')
      const real = await runRealRepositories({ rounds, missing, log, mcpFirstAnswer: true, wideMix: true, notes })
      if (real !== undefined) {
        const { firstAnswer: first, increments, ...rest } = real
        realRepositories = rest
        firstAnswer = first
        wideIncrements = [...increments]
      }
    }

    let monorepoFirstAnswer: BenchReport['monorepoFirstAnswer']
    if (!options['skip-real'] && selected('monorepo')) {
      log('a large monorepo: tanstack-query, its workspace packages linked, against the bare server primed with one file per project')
      monorepoFirstAnswer = await runMonorepoFirstAnswer({ rounds: Math.min(rounds, 5), missing, log })
    }

    let languages: BenchReport['languages']
    if (selected('languages')) {
      log('Go and Rust: gopls and rust-analyzer on their corpora against the bare servers')
      languages = await runLanguages({ rounds, missing, log })
    }

    let diskChanges: BenchReport['diskChanges']
    if (selected('disk-changes')) {
      log('keeping up with the disk: the hot references question with nothing changed and right after a change, against the bare server')
      diskChanges = await runDiskChanges({ scratch, turns: Math.max(2, Number(options['disk-turns'])), missing, log })
    }

    let keptPages: BenchReport['keptPages']
    if (selected('pages')) {
      log('pages from the computed answer: later pages of a 5,001-reference answer against the first')
      keptPages = await runKeptPages({ scratch, rounds: Math.max(3, Math.round(rounds / 4)), pages: 10, log })
    }

    // Last: the "with exporter" series registers an OpenTelemetry SDK in this process, and the API's proxy tracer
    // codeseam took at load keeps its tracer even after the SDK is unregistered.
    let telemetry: BenchReport['telemetry']
    if (selected('telemetry')) {
      const workspace = generated[0] ?? (await writeWorkspace(scratch, 'ts-50', 50))
      const measured = await runTelemetryOverhead({
        workspace,
        queries: generatedReadMix(workspace).filter((query) => !isDerivedOperation(query.operation)),
        pairs: Math.max(1, Number(options['telemetry-pairs'])),
        log,
      })
      if ('missing' in measured) {
        missing.push({ what: 'telemetry overhead', why: measured.missing })
        log(`not measured: telemetry overhead: ${measured.missing}`)
      } else telemetry = measured
    }

    const report: BenchReport = {
      schema: 1,
      generatedAt: new Date().toISOString(),
      command: `pnpm bench${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
      durationMs: Math.round(performance.now() - started),
      machine,
      workspaces: runs.map((run) => run.info),
      readMix: runs.flatMap((run) => run.readMix),
      derivedOperations: derivedOperationInfos.filter((info) =>
        runs.some((run) => run.readMix.some((r) => r.byOperation[info.operation] !== undefined)),
      ),
      coldStart,
      hotReferences: runs.flatMap((run) => run.hotReferences),
      targetResolution: runs.flatMap((run) => (run.targetResolution === undefined ? [] : [run.targetResolution])),
      concurrency: runs.flatMap((run) => run.concurrency),
      memory: runs.flatMap((run) => run.memory),
      ...(realRepositories === undefined ? {} : { realRepositories }),
      ...(monorepoFirstAnswer === undefined ? {} : { monorepoFirstAnswer }),
      increments: [...runs.flatMap((run) => run.increments), ...wideIncrements],
      ...(sdkNoop === undefined ? {} : { sdkNoop }),
      ...(startup === undefined ? {} : { startup }),
      ...(firstAnswer === undefined ? {} : { firstAnswer }),
      ...(manyAgents === undefined ? {} : { manyAgents }),
      ...(languages === undefined ? {} : { languages }),
      ...(diskChanges === undefined ? {} : { diskChanges }),
      ...(keptPages === undefined ? {} : { keptPages }),
      ...(telemetry === undefined ? {} : { telemetry }),
      ownMemory: runs.flatMap((run) => run.ownMemory),
      missing,
      notes,
    }
    process.stdout.write(`${printReport(report)}\n`)
    const out =
      options.out ??
      (partial
        ? nodePath.join(tmpdir(), realOnly ? 'codeseam-bench-real-repositories.json' : 'codeseam-bench-partial.json')
        : nodePath.join(repositoryRoot, 'docs', 'performance.json'))
    await mkdir(nodePath.dirname(out), { recursive: true })
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`)
    log(`wrote ${out}`)
    if (!options['no-docs'] && !partial) {
      const written = await writeDocs(report, nodePath.join(repositoryRoot, 'docs'))
      log(`wrote ${written.join(', ')}`)
    }
    const leaked = childProcesses()
    if (leaked.length > 0) throw new Error(`processes still running after the bench: ${leaked.join(', ')}`)
    log(`done in ${(report.durationMs / 1000).toFixed(0)} s`)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

// If every handle is gone while main() still waits (a dependency awaiting only unref'd handles), Node would
// exit 0 as if the run had finished: say so and fail instead.
let finished = false
process.on('beforeExit', () => {
  if (finished) return
  process.stderr.write('[bench] failed: the event loop emptied while the benchmark was still waiting (a promise that can never settle)\n')
  process.exit(1)
})

main().then(
  () => {
    finished = true
    process.exit(0)
  },
  (error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  },
)
