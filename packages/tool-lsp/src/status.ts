import { relativizeText, type LspProviderStatus } from '@codeseam/lsp'
import { Schema } from 'effect'

import { defineTool } from './definition.js'
import { lines, plural, renderNotice } from './render.js'
import { NonNegativeInt } from './schemas.js'

const ServerOutput = Schema.Struct({
  provider: Schema.String,
  /** The profile or server behind it (e.g. typescript, pyright). */
  server: Schema.optional(Schema.String),
  /** Workspace id, when the server belongs to one root. */
  rootId: Schema.optional(Schema.String),
  /** The other workspaces (ids) the same server serves beside rootId: several roots, one workspace (RFC 0025). */
  sharedRootIds: Schema.optional(Schema.Array(Schema.String)),
  /** `not-started`: registered, with no server running for any open root yet; it starts on the first question about its files. */
  state: Schema.Literals(['not-started', 'starting', 'indexing', 'ready', 'idle', 'crashed', 'unavailable']),
  /** Why it is unavailable or crashed, and what to do. */
  reason: Schema.optional(Schema.String),
  /** The exact command that installs a missing server (from the backend). */
  install: Schema.optional(Schema.String),
  languages: Schema.Array(Schema.String),
  extensions: Schema.Array(Schema.String),
  /** Operations the server answers natively. */
  operations: Schema.Array(Schema.String),
  /** Operations codeseam derives for this server from its native ones (RFC 0010): answers say so. */
  derivedOperations: Schema.optional(Schema.Array(Schema.String)),
  /** Companions answering some operations beside the server (e.g. ruff beside pyright). */
  companions: Schema.optional(Schema.Array(Schema.Struct({ id: Schema.String, operations: Schema.Array(Schema.String) }))),
  uptimeSeconds: Schema.optional(NonNegativeInt),
  /** Resident memory of the server's process tree, MB: a sample (absent until the server was first sampled). */
  memoryMb: Schema.optional(NonNegativeInt),
  /** How old that sample is, seconds (samples are taken every few seconds while the server runs). */
  memorySampledSecondsAgo: Schema.optional(NonNegativeInt),
  /** The resident memory this one server may hold before it is restarted, MB (the per-server ceiling; absent: none). */
  memoryCeilingMb: Schema.optional(NonNegativeInt),
  restarts: Schema.optional(NonNegativeInt),
  /** Projects the server has loaded, of those found (TypeScript configs, Python project folders), once known. */
  projects: Schema.optional(Schema.Struct({ loaded: NonNegativeInt, found: NonNegativeInt })),
  /** Present while its projects load for a question: projects loaded so far of those found (once planned), files opened. */
  loading: Schema.optional(
    Schema.Struct({
      projectsLoaded: Schema.optional(NonNegativeInt),
      projectsFound: Schema.optional(NonNegativeInt),
      filesOpened: NonNegativeInt,
    }),
  ),
  /** How changes on disk reach the server before each answer: its folder watched, or scanned (too many folders to watch). */
  diskChanges: Schema.optional(Schema.Literals(['watched', 'scanned'])),
})

const ActivityOutput = Schema.Struct({
  operation: Schema.String,
  /** Calls since this session's service started, failures included. */
  calls: NonNegativeInt,
  /** Failures by LspError code. */
  errors: Schema.Array(Schema.Struct({ code: Schema.String, count: NonNegativeInt })),
  /** Median and 95th percentile latency in ms, over the most recent calls (up to 1024). */
  p50Ms: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
  p95Ms: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
})

/** The resident memory of every running server behind this session's backend (in a shared daemon, other sessions' too). */
const MemoryOutput = Schema.Struct({
  /** The servers' last samples summed, MB. */
  residentMb: NonNegativeInt,
  /** Running servers summed (each with a sample). */
  servers: NonNegativeInt,
  /** Of those, the servers this session's roots use (listed in `servers`). */
  sessionServers: NonNegativeInt,
  /** Age of the oldest sample summed, seconds. */
  sampledSecondsAgo: NonNegativeInt,
  /** The per-server ceiling, MB, when the servers have one. */
  perServerCeilingMb: Schema.optional(NonNegativeInt),
  /**
   * The memory budget every server of the backend counts against together (in a shared daemon, both trust levels'
   * and every session's): above it, idle servers stop, least recently used first. Absent: no budget.
   */
  budget: Schema.optional(Schema.Struct({ usedMb: NonNegativeInt, budgetMb: NonNegativeInt, servers: NonNegativeInt })),
})

const StatusOutput = Schema.Struct({
  /** The open workspaces by id (the id is what rootId takes; no absolute path is shown). */
  workspaces: Schema.Array(Schema.Struct({ id: Schema.String })),
  servers: Schema.Array(ServerOutput),
  /** The servers' resident memory in total, from their samples; absent until a running server was sampled. */
  memory: Schema.optional(MemoryOutput),
  /** Per seam operation since start: calls, p50/p95 latency, failures by code (for a reader with no tracing backend). */
  activity: Schema.Array(ActivityOutput),
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_status`. */
export type StatusResult = typeof StatusOutput.Type

/** `code_status`: which language servers run, their state and what they can do. */
export const codeStatus = defineTool({
  name: 'code_status',
  title: 'Language server status',
  description: [
    'Which language servers serve this workspace, per language: state (not-started, starting, indexing, ready, idle, crashed, unavailable and why), the projects each has loaded of those found, the operations each answers, uptime and memory.',
    'Call it when another code_ tool answered empty or failed, to see whether a server is still indexing, crashed, or missing for that language (with what to install).',
    'It also lists, per operation since start, the calls made, their p50/p95 latency and failures by code.',
  ].join(' '),
  input: Schema.Struct({}),
  output: StatusOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(_input, context) {
    const providers = new Map(context.lsp.providers().map((p) => [String(p.id), p]))
    const roots = new Map(context.roots.map((r) => [r.root, r.id]))
    const all = context.lsp.status()
    // A server is this session's when every root it serves is (one serving other roots too is another session's).
    const own = all.filter((s) => s.root === undefined || [s.root, ...(s.sharedRoots ?? [])].every((root) => roots.has(root)))
    const now = Date.now()
    const servers: Array<StatusResult['servers'][number]> = own.map((status) => {
      const provider = providers.get(status.providerId)
      const extensions = provider === undefined ? [] : Object.keys(provider.extensions).sort()
      const languages = status.languages ?? (provider === undefined ? [] : [...new Set(Object.values(provider.extensions))].sort())
      const rootId = status.root === undefined ? undefined : roots.get(status.root)
      return {
        provider: status.providerId,
        ...(status.server === undefined ? {} : { server: status.server }),
        ...(rootId === undefined ? {} : { rootId }),
        ...(status.sharedRoots === undefined || status.sharedRoots.length === 0
          ? {}
          : { sharedRootIds: status.sharedRoots.map((root) => roots.get(root) ?? root) }),
        state: status.state,
        // A reason may quote a path under the server's root (a profile command, a config file): shown relative.
        ...(status.reason === undefined
          ? {}
          : { reason: status.root === undefined ? status.reason : relativizeText(status.reason, status.root) }),
        ...(status.state === 'unavailable' && status.install !== undefined ? { install: status.install } : {}),
        languages: [...languages],
        extensions,
        // An unavailable server answers nothing, whatever its provider declares.
        operations:
          status.state === 'unavailable'
            ? []
            : [...(status.operations !== undefined && status.operations.length > 0 ? status.operations : (provider?.operations ?? []))],
        ...(status.state === 'unavailable' || status.derivedOperations === undefined || status.derivedOperations.length === 0
          ? {}
          : { derivedOperations: [...status.derivedOperations] }),
        ...(status.state === 'unavailable' || status.companions === undefined || status.companions.length === 0
          ? {}
          : { companions: status.companions.map((c) => ({ id: c.id, operations: [...c.operations] })) }),
        ...(status.uptimeMs === undefined ? {} : { uptimeSeconds: Math.floor(status.uptimeMs / 1000) }),
        ...serverMemory(status, now),
        ...(status.restarts === undefined ? {} : { restarts: status.restarts }),
        ...(status.projects === undefined ? {} : { projects: { loaded: status.projects.loaded, found: status.projects.found } }),
        ...(status.loading === undefined ? {} : { loading: { ...status.loading } }),
        ...(status.diskChanges === undefined ? {} : { diskChanges: status.diskChanges }),
      }
    })
    // A registered provider with no status yet (a local host starts servers on their first query) is listed as not
    // started: a model asking before its first call learns which languages are served, and that none is running.
    if (context.roots.length > 0) {
      const listed = new Set(servers.map((s) => s.provider))
      for (const provider of providers.values()) {
        if (listed.has(String(provider.id))) continue
        servers.push({
          provider: String(provider.id),
          state: 'not-started' as const,
          reason: 'it starts on the first question about one of its files',
          languages: [...new Set(Object.values(provider.extensions))].sort(),
          extensions: Object.keys(provider.extensions).sort(),
          operations: [...provider.operations],
        })
      }
    }
    servers.sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : (a.rootId ?? '') < (b.rootId ?? '') ? -1 : 1))
    const problems = servers.filter(
      (s) => s.state === 'unavailable' || s.state === 'crashed' || s.state === 'indexing' || s.state === 'starting',
    )
    const notices: string[] = []
    if (context.roots.length === 0) notices.push('no workspace is open: the harness must open a workspace root first')
    if (servers.length === 0) notices.push('no language server is registered: configure one per language')
    if (problems.some((s) => s.state === 'indexing' || s.state === 'starting')) {
      notices.push('some servers are still starting or indexing: their answers may be incomplete until they are ready')
    }
    const activity = context.lsp.rollup().map((r) => ({
      operation: r.operation,
      calls: r.count,
      errors: Object.entries(r.errors)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([code, count]) => ({ code, count })),
      p50Ms: r.p50Ms,
      p95Ms: r.p95Ms,
    }))
    const memory = totalMemory(all, own, now)
    return {
      workspaces: context.roots.map((r) => ({ id: r.id })),
      servers,
      ...(memory === undefined ? {} : { memory }),
      activity,
      ...(notices.length === 0 ? {} : { notice: notices.join('. ') }),
    }
  },

  summary(result) {
    const started = result.servers.filter((s) => s.state !== 'not-started')
    const ready = started.filter((s) => s.state === 'ready' || s.state === 'idle').length
    const waiting = result.servers.length - started.length
    return `${ready}/${plural(started.length, 'server')} ready${waiting === 0 ? '' : `, ${waiting} not started`}`
  },

  render(result) {
    return lines(
      `workspaces: ${result.workspaces.map((w) => w.id).join(', ') || 'none'}`,
      renderNotice(result.notice),
      result.servers
        .filter((s) => s.state !== 'not-started')
        .map((s) => {
          const extra = [
            s.uptimeSeconds === undefined ? undefined : `up ${s.uptimeSeconds}s`,
            s.memoryMb === undefined
              ? undefined
              : `${s.memoryMb} MB${s.memorySampledSecondsAgo === undefined ? '' : ` sampled ${s.memorySampledSecondsAgo}s ago`}`,
            s.restarts === undefined || s.restarts === 0 ? undefined : `${plural(s.restarts, 'restart')}`,
          ].filter((x) => x !== undefined)
          return [
            `${s.server ?? s.provider}${s.rootId === undefined ? '' : ` @ ${[s.rootId, ...(s.sharedRootIds ?? [])].join(' + ')}`}: ${s.state}${s.projects === undefined ? '' : `, ${s.projects.loaded}/${plural(s.projects.found, 'project')}`}${extra.length === 0 ? '' : ` (${extra.join(', ')})`}  ${s.extensions.join(' ')}`,
            ...(s.loading === undefined ? [] : [`    loading: ${projectLoadingWords(s.loading)}`]),
            ...(s.reason === undefined ? [] : [`    why: ${s.reason}`]),
            ...(s.install === undefined ? [] : [`    install: ${s.install}`]),
            ...(s.diskChanges === 'scanned'
              ? ['    disk: too many folders to watch; its files are scanned for changes before each answer (slower)']
              : []),
            `    can: ${s.operations.join(', ') || 'nothing yet'}`,
            ...(s.derivedOperations === undefined ? [] : [`    derived by codeseam: ${s.derivedOperations.join(', ')}`]),
            ...(s.companions ?? []).map((c) => `    with ${c.id}: ${c.operations.join(', ')}`),
          ].join('\n')
        }),
      notStarted(result.servers.filter((s) => s.state === 'not-started')),
      renderMemory(result.memory),
      result.activity.length === 0 ? [] : ['activity since start:'],
      result.activity.map(
        (a) =>
          `  ${a.operation}: ${plural(a.calls, 'call')}, p50 ${a.p50Ms} ms, p95 ${a.p95Ms} ms${a.errors.length === 0 ? '' : `, failed: ${a.errors.map((e) => `${e.code} ×${e.count}`).join(', ')}`}`,
      ),
    )
  },
})

/** Servers not started yet, one line each (their operations are in the structured result). */
function notStarted(servers: StatusResult['servers']): string[] {
  if (servers.length === 0) return []
  return [
    'not started yet (each starts on the first question about one of its files):',
    ...servers.map((s) => `  ${s.server ?? s.provider}  ${s.extensions.join(' ')}`),
  ]
}

const MB = 1024 * 1024

/** A server's memory sample, its age and its ceiling, for the structured output. */
function serverMemory(status: LspProviderStatus, now: number): Partial<StatusResult['servers'][number]> {
  return {
    ...(status.rssBytes === undefined ? {} : { memoryMb: Math.round(status.rssBytes / MB) }),
    ...(status.rssBytes === undefined || status.rssSampledAt === undefined
      ? {}
      : { memorySampledSecondsAgo: Math.max(0, Math.floor((now - status.rssSampledAt) / 1000)) }),
    ...(status.memoryCeilingBytes === undefined ? {} : { memoryCeilingMb: Math.round(status.memoryCeilingBytes / MB) }),
  }
}

/** Every sampled server's memory summed (the backend's, other sessions' servers counted, never named); undefined when none was sampled. */
function totalMemory(
  all: ReadonlyArray<LspProviderStatus>,
  own: ReadonlyArray<LspProviderStatus>,
  now: number,
): StatusResult['memory'] | undefined {
  const sampled = all.filter((s) => s.rssBytes !== undefined)
  if (sampled.length === 0) return undefined
  const oldest = Math.min(...sampled.map((s) => s.rssSampledAt ?? now))
  const ceilings = [...new Set(sampled.flatMap((s) => (s.memoryCeilingBytes === undefined ? [] : [s.memoryCeilingBytes])))]
  // The ledger's figures, the same on every server counting against it (read in one status call).
  const budget = sampled.find((s) => s.memoryBudget !== undefined)?.memoryBudget
  return {
    residentMb: Math.round(sampled.reduce((sum, s) => sum + (s.rssBytes ?? 0), 0) / MB),
    servers: sampled.length,
    sessionServers: sampled.filter((s) => own.includes(s)).length,
    sampledSecondsAgo: Math.max(0, Math.floor((now - oldest) / 1000)),
    ...(ceilings.length === 1 && ceilings[0] !== undefined ? { perServerCeilingMb: Math.round(ceilings[0] / MB) } : {}),
    ...(budget === undefined
      ? {}
      : { budget: { usedMb: Math.round(budget.usedBytes / MB), budgetMb: Math.round(budget.budgetBytes / MB), servers: budget.servers } }),
  }
}

/** The total line: what the servers hold, how old the samples are, the per-server ceiling and the budget of them all. */
function renderMemory(memory: StatusResult['memory']): string[] {
  if (memory === undefined) return []
  const others = memory.servers - memory.sessionServers
  return [
    `memory: ${memory.residentMb} MB resident across ${plural(memory.servers, 'running server')}${others === 0 ? '' : ` (${others} serving other sessions)`}, sampled up to ${memory.sampledSecondsAgo}s ago; ${
      memory.perServerCeilingMb === undefined
        ? 'no memory ceiling is set'
        : `each server is restarted above its ${memory.perServerCeilingMb} MB per-server ceiling`
    }; ${
      memory.budget === undefined
        ? 'no budget limits the total'
        : `${memory.budget.usedMb} of ${memory.budget.budgetMb} MB budget across ${plural(memory.budget.servers, 'server')} of every session (above it, idle servers stop, least recently used first)`
    }`,
  ]
}

/** "projects 12/46, 380 files opened": a project load as it runs (code_status, and MCP progress while a call waits on it). */
export function projectLoadingWords(loading: {
  readonly projectsLoaded?: number | undefined
  readonly projectsFound?: number | undefined
  readonly filesOpened: number
}): string {
  const projects =
    loading.projectsFound !== undefined
      ? `projects ${loading.projectsLoaded ?? 0}/${loading.projectsFound}, `
      : loading.projectsLoaded !== undefined
        ? `projects ${loading.projectsLoaded}, `
        : ''
  return `${projects}${plural(loading.filesOpened, 'file')} opened`
}
