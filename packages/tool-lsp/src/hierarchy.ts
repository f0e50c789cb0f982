import {
  LspError,
  toModelPosition,
  type LspHierarchyItem,
  type LspRange,
  type LspResultMeta,
  type LspWorkspaceInfo,
  type ResolvedTarget,
} from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool, type ToolContext } from './definition.js'
import { completeAnswer, pageAnswer, type Computed } from './kept-answers.js'
import { at, lines, plural, renderNotice, renderPage, renderReadiness, renderTarget } from './render.js'
import {
  FirstMatchInput,
  KeptCursorInput,
  NonNegativeInt,
  PageOutput,
  PositiveInt,
  ReadinessOutput,
  ResolvedTargetOutput,
  SymbolKind,
  TargetInput,
} from './schemas.js'
import { OtherRootField, placed } from './placement.js'
import { joinNotices, noticeFor, readinessOf, resolveToolTarget, targetOutput, worstReadiness } from './targeting.js'

/** Directions a model can walk. */
export const hierarchyKinds = ['callers', 'callees', 'supertypes', 'subtypes'] as const
type HierarchyKind = (typeof hierarchyKinds)[number]

/** Limits of `code_hierarchy`: the direct list, and the graph. */
export const hierarchyLimits = { defaultLimit: 50, maxLimit: 200 } as const
/** Edges allowed per node budget. */
const edgesPerNode = 4
/** Wall-clock budget of a graph walk; past it the walk stops and says so. */
export const hierarchyTimeBudgetMs = 15_000

const HierarchyInput = Schema.Struct({
  target: TargetInput,
  kind: Schema.Literals(hierarchyKinds).annotate({
    description:
      'callers: functions that call the target; callees: functions it calls; supertypes / subtypes: the type hierarchy of a class or interface.',
  }),
  depth: Schema.optional(PositiveInt.check(Schema.isLessThanOrEqualTo(4))).annotate({
    description: 'Levels to walk (1–4, default 1). Deeper levels come back as a deduplicated graph.',
  }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Direct results per page and graph node budget (default 50, max 200).' }),
  cursor: KeptCursorInput,
  firstMatch: FirstMatchInput,
})

/** A call site: where the call's name is, 1-based (end exclusive). */
const CallSiteOutput = Schema.Struct({ line: PositiveInt, column: PositiveInt, endLine: PositiveInt, endColumn: PositiveInt })

function callSite(range: LspRange): typeof CallSiteOutput.Type {
  const start = toModelPosition(range.start)
  const end = toModelPosition(range.end)
  return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column }
}

/** A symbol in the hierarchy, as both the direct list and the graph show it. */
const symbolFields = {
  /** Stable id: `name@path:line`. */
  id: Schema.String,
  name: Schema.String,
  kind: SymbolKind,
  detail: Schema.optional(Schema.String),
  path: Schema.String,
  rootId: OtherRootField,
  line: PositiveInt,
  column: PositiveInt,
}

const NodeOutput = Schema.Struct({
  ...symbolFields,
  /** Levels away from the target (0 = the target). */
  depth: NonNegativeInt,
})

const EdgeOutput = Schema.Struct({
  /** For calls: `from` calls `to`. For types: `from` extends/implements `to`. */
  from: Schema.String,
  to: Schema.String,
  /** Call sites (in the caller's file), 1-based. */
  callSites: Schema.optional(Schema.Array(CallSiteOutput)),
})

const DirectOutput = Schema.Struct({
  ...symbolFields,
  callSites: Schema.optional(Schema.Array(CallSiteOutput)),
})

const HierarchyOutput = Schema.Struct({
  kind: Schema.Literals(hierarchyKinds),
  target: ResolvedTargetOutput,
  /** The hierarchy root the server prepared (the symbol the walk starts from). */
  root: Schema.optional(NodeOutput),
  /** One hop from the target. */
  direct: Schema.Array(DirectOutput),
  page: PageOutput,
  /** The walk to `depth`, deduplicated (cycles appear as edges back to known nodes). */
  graph: Schema.Struct({
    depth: PositiveInt,
    nodes: Schema.Array(NodeOutput),
    edges: Schema.Array(EdgeOutput),
    truncated: Schema.Struct({ nodes: Schema.Boolean, edges: Schema.Boolean, time: Schema.Boolean }),
  }),
  readiness: ReadinessOutput,
  /**
   * Supertypes derived from the declarations (RFC 0010): declared bases that resolve to no declaration in the
   * workspace (a library, `Generic[T]`, a call), by the name written in the source.
   */
  unresolved: Schema.optional(Schema.Array(Schema.String)),
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_hierarchy`. */
export type HierarchyResult = typeof HierarchyOutput.Type

type Node = typeof NodeOutput.Type
type Edge = typeof EdgeOutput.Type

interface Hop {
  readonly item: LspHierarchyItem
  readonly callSites?: ReadonlyArray<LspRange>
}

/** The target's root and the workspace's open roots: where a node's path is shown from (RFC 0025). */
interface Where {
  readonly root: string
  readonly roots: ReadonlyArray<LspWorkspaceInfo>
}

function nodeId(where: Where, item: LspHierarchyItem): string {
  const place = placed(where.roots, where.root, item.path)
  return `${item.name}@${place.rootId === undefined ? '' : `${place.rootId}:`}${place.path}:${item.selectionRange.start.line + 1}`
}

function toNode(where: Where, item: LspHierarchyItem, depth: number): Node {
  const position = toModelPosition(item.selectionRange.start)
  return {
    id: nodeId(where, item),
    name: item.name,
    kind: item.kind,
    ...(item.detail === undefined || item.detail === '' ? {} : { detail: item.detail }),
    ...placed(where.roots, where.root, item.path),
    line: position.line,
    column: position.column,
    depth,
  }
}

/** One hop from `item` in direction `kind`, with the metadata of the answer. */
async function step(
  context: ToolContext,
  root: string,
  kind: HierarchyKind,
  item: LspHierarchyItem,
): Promise<{ hops: Hop[]; meta: LspResultMeta }> {
  if (kind === 'callers' || kind === 'callees') {
    const result = await context.lsp.query(
      { operation: kind === 'callers' ? 'incomingCalls' : 'outgoingCalls', root, item },
      context.signal,
    )
    return { hops: result.calls.map((c) => ({ item: c.item, callSites: c.fromRanges })), meta: result.meta }
  }
  const result = await context.lsp.query({ operation: kind, root, item }, context.signal)
  return { hops: result.items.map((i) => ({ item: i })), meta: result.meta }
}

/** The graph a walk found, its budgets, the readiness of every answer it used and the levels that failed. */
interface Walked {
  readonly nodes: Node[]
  readonly edges: Edge[]
  readonly truncated: { nodes: boolean; edges: boolean; time: boolean }
  readonly readiness: ReadinessOutput[]
  readonly failures: string[]
}

/** The whole answer of one hierarchy question, as kept between pages (RFC 0026). */
interface HierarchyAnswer {
  readonly prepared: LspResultMeta
  readonly start?: LspHierarchyItem
  readonly first?: { readonly hops: Hop[]; readonly meta: LspResultMeta }
  readonly walked?: Walked
}

/** Prepares the item, takes the first hop and walks the graph; kept when complete and longer than one page. */
async function computeHierarchy(
  context: ToolContext,
  kind: HierarchyKind,
  resolved: ResolvedTarget,
  limit: number,
  depth: number,
  keepable: boolean,
): Promise<Computed<HierarchyAnswer>> {
  const operation = kind === 'supertypes' || kind === 'subtypes' ? 'prepareTypeHierarchy' : 'prepareCallHierarchy'
  const { root, path, position, document } = resolved
  const prepared = await context.lsp.query({ operation, root, path, position, document }, context.signal)
  const start = prepared.items[0]
  if (start === undefined) return { value: { prepared: prepared.meta }, keep: false }
  const first = await step(context, resolved.root, kind, start)
  const walked = await walkGraph(context, kind, { root: resolved.root, roots: context.roots }, start, first, limit, depth)
  const settled = walked.failures.length === 0 && !walked.truncated.time && walked.readiness.every((r) => r.status === 'ready')
  const keep = keepable && first.hops.length > limit && completeAnswer(prepared.meta) && completeAnswer(first.meta) && settled
  return { value: { prepared: prepared.meta, start, first, walked }, keep }
}

/** Breadth-first walk with node, edge and time budgets; ids dedupe, so cycles end at known nodes. */
async function walkGraph(
  context: ToolContext,
  kind: HierarchyKind,
  where: Where,
  start: LspHierarchyItem,
  first: { readonly hops: Hop[]; readonly meta: LspResultMeta },
  limit: number,
  depth: number,
): Promise<Walked> {
  const deadline = performance.now() + hierarchyTimeBudgetMs
  const maxEdges = limit * edgesPerNode
  const nodes = new Map<string, Node>()
  const edges: Edge[] = []
  const truncated = { nodes: false, edges: false, time: false }
  const readiness = [readinessOf(first.meta)]
  const rootNode = toNode(where, start, 0)
  nodes.set(rootNode.id, rootNode)
  let frontier: Array<{ item: LspHierarchyItem; hops?: Hop[] }> = [{ item: start, hops: first.hops }]
  const failures: string[] = []
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    context.onProgress?.({
      message: `${kind}: level ${level} of ${depth}, ${plural(frontier.length, 'symbol')} to expand`,
      done: level - 1,
      total: depth,
    })
    const next: typeof frontier = []
    for (const entry of frontier) {
      if (performance.now() > deadline) {
        truncated.time = true
        break
      }
      let hops = entry.hops
      if (hops === undefined) {
        try {
          const answer = await step(context, where.root, kind, entry.item)
          readiness.push(readinessOf(answer.meta))
          hops = answer.hops
        } catch (error) {
          // A deeper level failing must not erase the levels already found; it is reported.
          if (error instanceof LspError && !['CANCELLED', 'DISPOSED'].includes(error.code)) {
            failures.push(`${entry.item.name}: ${error.code}`)
            continue
          }
          throw error
        }
      }
      const fromId = nodeId(where, entry.item)
      for (const hop of hops) {
        const id = nodeId(where, hop.item)
        if (!nodes.has(id)) {
          if (nodes.size >= limit) {
            truncated.nodes = true
            continue
          }
          nodes.set(id, toNode(where, hop.item, level))
          if (level < depth) next.push({ item: hop.item })
        }
        if (edges.length >= maxEdges) {
          truncated.edges = true
          continue
        }
        // Edges point the way calls and inheritance go, whichever direction was walked.
        const [from, to] = kind === 'callers' || kind === 'subtypes' ? [id, fromId] : [fromId, id]
        const callSites = hop.callSites?.map(callSite)
        edges.push({ from, to, ...(callSites === undefined ? {} : { callSites }) })
      }
    }
    if (truncated.time) break
    frontier = next
  }
  return { nodes: [...nodes.values()], edges, truncated, readiness, failures }
}

/** `code_hierarchy`: callers, callees, supertypes or subtypes, one hop plus a bounded graph. */
export const codeHierarchy = defineTool({
  name: 'code_hierarchy',
  title: 'Call and type hierarchy',
  description: [
    'Who calls a function (callers), what it calls (callees), or the supertypes / subtypes of a class or interface, from the language server.',
    'Use it to judge the impact of a change or to trace a flow, instead of grepping for the name (which misses aliased calls and finds unrelated ones).',
    'Returns the direct list (with call sites) and, with depth 2–4, a deduplicated graph with stable node ids and directed edges; cycles are safe and node, edge and time budgets are reported.',
  ].join(' '),
  input: HierarchyInput,
  output: HierarchyOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const resolved = await resolveToolTarget(context, input.target, { firstMatch: input.firstMatch })
    const root = resolved.root
    const where: Where = { root, roots: context.roots }
    const typeWalk = input.kind === 'supertypes' || input.kind === 'subtypes'
    const limit = clampLimit(input.limit, hierarchyLimits)
    const depth = input.depth ?? 1
    const fingerprint = queryFingerprint(['code_hierarchy', input.kind, resolved.rootId, resolved.displayPath, resolved.position, depth])
    // A later page of a kept answer asks no server (RFC 0026): the prepare, the first hop and the graph are kept.
    const answer = await pageAnswer(context, {
      roots: context.roots.map((r) => r.root),
      fingerprint,
      cursor: input.cursor,
      compute: (keepable) => computeHierarchy(context, input.kind, resolved, limit, depth, keepable),
    })
    const { start, first, walked } = answer.value
    if (start === undefined || first === undefined || walked === undefined) {
      return {
        kind: input.kind,
        target: targetOutput(resolved),
        direct: [],
        page: paginate([], { limit, cursor: input.cursor, fingerprint }).page,
        graph: { depth, nodes: [], edges: [], truncated: { nodes: false, edges: false, time: false } },
        readiness: readinessOf(answer.value.prepared),
        notice:
          noticeFor(answer.value.prepared, true, 'hierarchy items', resolved.rootId, resolved) ??
          `the server found no ${typeWalk ? 'type' : 'function or method'} at the target; aim at the declaration name of a ${typeWalk ? 'class or interface' : 'function or method'}`,
      }
    }
    const direct = paginate(first.hops, { limit, cursor: input.cursor, fingerprint, mark: answer.mark })
    const unresolved = [...(first.meta.derived?.unresolved ?? [])]
    const notice = joinNotices(
      noticeFor(first.meta, first.hops.length === 0, input.kind, resolved.rootId),
      walked.failures.length > 0 ? `some deeper levels failed and are missing: ${walked.failures.join(', ')}` : undefined,
      walked.truncated.time
        ? `the walk stopped after ${hierarchyTimeBudgetMs / 1000} s; ask for a smaller depth for a complete graph`
        : undefined,
    )
    return {
      kind: input.kind,
      target: targetOutput(resolved),
      root: toNode(where, start, 0),
      direct: direct.items.map((hop) => {
        const node = toNode(where, hop.item, 1)
        const { depth: _depth, ...rest } = node
        return { ...rest, ...(hop.callSites === undefined ? {} : { callSites: hop.callSites.map(callSite) }) }
      }),
      page: direct.page,
      graph: { depth, nodes: walked.nodes, edges: walked.edges, truncated: walked.truncated },
      readiness: worstReadiness([readinessOf(answer.value.prepared), ...walked.readiness]),
      ...(unresolved.length === 0 ? {} : { unresolved }),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    const more = result.graph.depth > 1 ? ` · graph ${plural(result.graph.nodes.length, 'node')}` : ''
    const named = result.unresolved === undefined ? '' : ` · ${result.unresolved.length} unresolved by name`
    return `${plural(result.page.total, result.kind === 'callers' ? 'caller' : result.kind === 'callees' ? 'callee' : result.kind === 'supertypes' ? 'supertype' : 'subtype')}${named}${more}`
  },

  render(result) {
    const body: string[] = []
    for (const d of result.direct) {
      const sites =
        d.callSites === undefined || d.callSites.length === 0
          ? ''
          : `  calls at ${d.callSites.map((s) => `${s.line}:${s.column}`).join(', ')}`
      body.push(`  ${d.kind} ${d.name}  ${at(d.path, d.line, d.column)}${d.rootId === undefined ? '' : ` (in root ${d.rootId})`}${sites}`)
    }
    const graph: string[] = []
    if (result.graph.depth > 1) {
      graph.push(
        `graph to depth ${result.graph.depth}: ${plural(result.graph.nodes.length, 'node')}, ${plural(result.graph.edges.length, 'edge')}`,
      )
      for (const edge of result.graph.edges) graph.push(`  ${edge.from} -> ${edge.to}`)
      const cut = Object.entries(result.graph.truncated)
        .filter(([, v]) => v)
        .map(([k]) => k)
      if (cut.length > 0) graph.push(`  graph truncated by the ${cut.join(' and ')} budget`)
    }
    return lines(
      renderTarget(result.target),
      `${result.kind} (${result.page.total}):`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      body,
      (result.unresolved ?? []).map((name) => `  ${name}  (declared base with no declaration in the workspace)`),
      renderPage(result.page, result.kind),
      graph,
    )
  },
})
