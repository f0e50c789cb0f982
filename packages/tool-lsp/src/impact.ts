import {
  compareText,
  impactLimits,
  impactOf,
  lspOperations,
  toModelPosition,
  type ImpactDependent,
  type LspRange,
  type LspWorkspaceInfo,
} from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool } from './definition.js'
import { at, lines, plural, renderNotice, renderPage, renderReadiness, renderTarget } from './render.js'
import {
  FirstMatchInput,
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

/** Limits of `code_impact`'s dependents list. */
export const impactListLimits = { defaultLimit: 50, maxLimit: 200 } as const

const ImpactInput = Schema.Struct({
  target: TargetInput,
  depth: Schema.optional(PositiveInt.check(Schema.isLessThanOrEqualTo(impactLimits.maxDepth))).annotate({
    description: `Levels of dependents (1–${impactLimits.maxDepth}, default ${impactLimits.defaultDepth}): 1 = the symbols that refer to the target, 2 = also the symbols that refer to those.`,
  }),
  maxSymbols: Schema.optional(PositiveInt.check(Schema.isLessThanOrEqualTo(1000))).annotate({
    description: `Symbols whose references are asked for, the target included (default ${impactLimits.defaultMaxSymbols}, max 1000); past it dependents are listed but not expanded, and counted.`,
  }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Dependents per page (default 50, max 200).' }),
  cursor: Schema.optional(Schema.String).annotate({ description: 'nextCursor from a previous result with the same arguments.' }),
  firstMatch: FirstMatchInput,
})

const SiteOutput = Schema.Struct({ line: PositiveInt, column: PositiveInt })

const SymbolOutput = Schema.Struct({
  /** Stable id: `qualified.name@path:line`. */
  id: Schema.String,
  name: Schema.String,
  kind: SymbolKind,
  path: Schema.String,
  rootId: OtherRootField,
  line: PositiveInt,
  column: PositiveInt,
})

const DependentOutput = Schema.Struct({
  /** The symbol id, or `file:<path>` for a reference outside every symbol (imports, module code). */
  id: Schema.String,
  /** The enclosing symbol; absent for a file-level dependent (never expanded further). */
  symbol: Schema.optional(SymbolOutput),
  path: Schema.String,
  rootId: OtherRootField,
  module: Schema.String,
  test: Schema.Boolean,
  /** Levels away from the target (1 = direct). */
  depth: PositiveInt,
  /** Ids of the symbols it refers to. */
  dependsOn: Schema.Array(Schema.String),
  /** Reference sites, 1-based. */
  sites: Schema.Array(SiteOutput),
})

const CountOutput = Schema.Struct({ dependents: NonNegativeInt, tests: NonNegativeInt })

const ImpactOutput = Schema.Struct({
  target: ResolvedTargetOutput,
  /** The symbol the walk started from (the innermost outline symbol at the target). */
  root: Schema.optional(SymbolOutput),
  depth: PositiveInt,
  /** Every dependent, paged: non-test first, then tests; by depth, path and position within each. */
  dependents: Schema.Array(DependentOutput),
  page: PageOutput,
  counts: Schema.Struct({
    total: NonNegativeInt,
    tests: NonNegativeInt,
    /** Dependents per depth, index 0 = depth 1. */
    byDepth: Schema.Array(NonNegativeInt),
    /** Symbols whose references were asked, the target included. */
    expanded: NonNegativeInt,
    /** Symbols found but not expanded because `maxSymbols` was reached (still listed). */
    notExpanded: NonNegativeInt,
    /** References landing on an already visited symbol (cycles, repeats), counted once. */
    revisits: NonNegativeInt,
  }),
  /** Every dependent's file (not only this page's), with counts. */
  files: Schema.Array(
    Schema.Struct({ path: Schema.String, rootId: OtherRootField, module: Schema.String, test: Schema.Boolean, dependents: NonNegativeInt }),
  ),
  /** Per package/module (the nearest folder with a manifest, else the top-level folder). */
  modules: Schema.Array(Schema.Struct({ module: Schema.String, ...CountOutput.fields })),
  /** The native operations the answer was derived from. */
  derived: Schema.Struct({ from: Schema.Array(Schema.Literals(lspOperations)) }),
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_impact`. */
export type ImpactToolResult = typeof ImpactOutput.Type

function site(range: LspRange): typeof SiteOutput.Type {
  return toModelPosition(range.start)
}

function dependentId(where: Where, d: ImpactDependent): string {
  const place = placed(where.roots, where.root, d.path)
  return d.symbol?.id ?? `file:${place.rootId === undefined ? '' : `${place.rootId}:`}${place.path}`
}

/** The target's root and the workspace's open roots: where a path is shown from (RFC 0025). */
interface Where {
  readonly root: string
  readonly roots: ReadonlyArray<LspWorkspaceInfo>
}

/** `code_impact`: the dependents of a symbol to a depth, grouped by file and module, tests apart. */
export const codeImpact = defineTool({
  name: 'code_impact',
  title: 'Change impact',
  description: [
    'What depends on a symbol, to a depth: the functions, methods and classes that refer to it (depth 1), then what refers to those (depth 2, the default), from the language server.',
    'Use it before changing a signature or behaviour to see what could break, grouped by file and package with tests apart, instead of grepping for the name.',
    'Derived from references and document symbols: a reference outside every symbol (an import, module code) is a file-level dependent; cycles end; a large fan-out is capped with totals.',
  ].join(' '),
  input: ImpactInput,
  output: ImpactOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const resolved = await resolveToolTarget(context, input.target, { firstMatch: input.firstMatch })
    const root = resolved.root
    const where: Where = { root, roots: context.roots }
    const depth = input.depth ?? impactLimits.defaultDepth
    const result = await impactOf(
      context.lsp,
      {
        root,
        path: resolved.path,
        position: resolved.position,
        depth,
        ...(input.maxSymbols === undefined ? {} : { maxSymbols: input.maxSymbols }),
      },
      context.signal,
    )
    const all = [...result.dependents].sort((a, b) => Number(a.test) - Number(b.test))
    const limit = clampLimit(input.limit, impactListLimits)
    const fingerprint = queryFingerprint(['code_impact', resolved.rootId, resolved.displayPath, resolved.position, depth, input.maxSymbols])
    const page = paginate(all, { limit, cursor: input.cursor, fingerprint })

    const files = new Map<string, { path: string; module: string; test: boolean; dependents: number }>()
    const modules = new Map<string, { module: string; dependents: number; tests: number }>()
    const byDepth = Array.from({ length: result.depth }, () => 0)
    for (const d of all) {
      const place = placed(where.roots, root, d.path)
      const file = `${place.rootId ?? ''}:${place.path}`
      const f = files.get(file) ?? { ...place, module: d.module, test: d.test, dependents: 0 }
      f.dependents++
      files.set(file, f)
      const m = modules.get(d.module) ?? { module: d.module, dependents: 0, tests: 0 }
      m.dependents++
      if (d.test) m.tests++
      modules.set(d.module, m)
      byDepth[d.depth - 1]!++
    }
    const toSymbol = (s: NonNullable<ImpactDependent['symbol']>) => {
      const p = toModelPosition(s.selectionRange.start)
      return { id: s.id, name: s.name, kind: s.kind, ...placed(where.roots, root, s.path), line: p.line, column: p.column }
    }
    // The note about derivation is this tool's own; the references answer's notice (coverage, readiness) is kept.
    const { derived: _derived, ...referencesMeta } = result.meta
    const notice = joinNotices(
      result.target.name === '' ? 'no outline symbol encloses the target: the references at the target were used as is' : undefined,
      noticeFor(referencesMeta, all.length === 0, 'dependents', resolved.rootId),
      result.notExpanded > 0
        ? `${plural(result.notExpanded, 'symbol')} reached past maxSymbols (${result.expanded} expanded) are listed but their own dependents were not asked; raise maxSymbols or lower depth`
        : undefined,
    )
    return {
      target: targetOutput(resolved),
      ...(result.target.name === '' ? {} : { root: toSymbol(result.target) }),
      depth: result.depth,
      dependents: page.items.map((d) => ({
        id: dependentId(where, d),
        ...(d.symbol === undefined ? {} : { symbol: toSymbol(d.symbol) }),
        ...placed(where.roots, root, d.path),
        module: d.module,
        test: d.test,
        depth: d.depth,
        dependsOn: [...d.dependsOn],
        sites: d.sites.map(site),
      })),
      page: page.page,
      counts: {
        total: all.length,
        tests: all.filter((d) => d.test).length,
        byDepth,
        expanded: result.expanded,
        notExpanded: result.notExpanded,
        revisits: result.revisits,
      },
      files: [...files.values()].sort((a, b) => Number(a.test) - Number(b.test) || compareText(a.path, b.path)),
      modules: [...modules.values()].sort((a, b) => b.dependents - a.dependents || compareText(a.module, b.module)),
      derived: { from: [...(result.meta.derived?.from ?? [])] },
      readiness: worstReadiness(result.answers.map(readinessOf)),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    return `${plural(result.counts.total, 'dependent')} (${result.counts.tests} in tests) in ${plural(result.files.length, 'file')}, depth ${result.depth}`
  },

  render(result) {
    const body: string[] = []
    let inTests = false
    for (const d of result.dependents) {
      if (d.test && !inTests) {
        body.push('  tests:')
        inTests = true
      }
      const where = d.sites.map((s) => `${s.line}:${s.column}`).join(', ')
      const name = d.symbol === undefined ? '(file level)' : `${d.symbol.kind} ${d.symbol.name}`
      const line = d.symbol?.line ?? d.sites[0]?.line ?? 1
      body.push(`  [${d.depth}] ${name}  ${at(d.path, line)}${d.rootId === undefined ? '' : ` (in root ${d.rootId})`}  refs at ${where}`)
    }
    const c = result.counts
    return lines(
      renderTarget(result.target),
      `dependents (${c.total}; ${c.tests} in tests; ${c.byDepth.map((n, i) => `depth ${i + 1}: ${n}`).join(', ')}):`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      body,
      renderPage(result.page, 'dependents'),
      `modules: ${result.modules.map((m) => `${m.module} ${m.dependents}${m.tests > 0 ? ` (${m.tests} tests)` : ''}`).join(', ') || 'none'}`,
      `expanded ${c.expanded} symbols, ${c.notExpanded} not expanded (cap), ${c.revisits} revisits; derived from ${result.derived.from.join(', ')}`,
    )
  },
})
