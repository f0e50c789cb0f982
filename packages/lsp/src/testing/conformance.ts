import { LspError } from '../errors.js'
import { extensionOf, isWithin } from '../paths.js'
import type { LspProvider, LspWorkspace } from '../provider.js'
import { createLsp } from '../service.js'
import {
  lspOperations,
  resultKindByOperation,
  type LspDerivation,
  type LspLocation,
  type LspOperation,
  type LspQueryRequest,
  type LspQueryResult,
  type LspRange,
  type LspResultFor,
} from '../vocabulary.js'
import { copyFixture, conformanceFixtureDir, type FixtureWorkspace } from './fixture.js'

/** What a provider factory hands the kit for one fixture workspace. */
export interface ConformanceSubject {
  readonly provider: LspProvider
  /** The backend's workspace for the root, when it has one (checked for reads and containment). */
  readonly workspace?: LspWorkspace
  /** Stops whatever the factory started. */
  dispose?(): Promise<void> | void
}

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** Builds the provider under test for the fixture copy at `root`. */
  readonly setup: (root: string) => Promise<ConformanceSubject> | ConformanceSubject
  /** Deadline of each check, in ms (default 60 000). */
  readonly checkTimeoutMs?: number
  /** Fixture folder to copy (default: the TypeScript fixture shipped with the kit). */
  readonly fixtureDir?: string
}

/** The outcome of one check. */
export interface ConformanceCheck {
  readonly name: string
  readonly operation?: LspOperation
  readonly status: 'passed' | 'failed' | 'skipped'
  readonly message: string
}

/** The kit's report: every check with its outcome. */
export interface ConformanceReport {
  readonly providerId: string
  readonly passed: boolean
  readonly checks: ReadonlyArray<ConformanceCheck>
  readonly counts: { readonly passed: number; readonly failed: number; readonly skipped: number }
}

class CheckFailure extends Error {}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message)
}

function covers(range: LspRange, line: number): boolean {
  return range.start.line <= line && line <= range.end.line
}

function describeLocations(locations: ReadonlyArray<LspLocation>, root: string): string {
  if (locations.length === 0) return 'no locations'
  return locations.map((l) => `${l.path.slice(root.length + 1)}:${l.range.start.line + 1}`).join(', ')
}

interface CheckContext {
  readonly fixture: FixtureWorkspace
  readonly root: string
  query<R extends LspQueryRequest>(request: R, signal?: AbortSignal): Promise<LspResultFor<R['operation']>>
  readonly outside: string[]
}

interface CheckSpec {
  readonly name: string
  /** Operations the provider must claim for the check to run (all of them). */
  readonly needs: ReadonlyArray<LspOperation>
  run(context: CheckContext): Promise<string>
}

const SHAPES = 'src/shapes.ts'
const GEOMETRY = 'src/geometry.ts'
const MAIN = 'src/main.ts'

const positionChecks = [
  {
    name: 'definition lands on the declaration',
    needs: ['definition'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'totalArea(shapes)')
      const result = await query({ operation: 'definition', root, path: fixture.path(MAIN), position: at })
      const line = await fixture.lineOf(GEOMETRY, 'export function totalArea')
      expect(
        result.locations.some((l) => l.path === fixture.path(GEOMETRY) && covers(l.targetSelectionRange ?? l.range, line)),
        `expected geometry.ts:${line + 1}, got ${describeLocations(result.locations, root)}`,
      )
      return describeLocations(result.locations, root)
    },
  },
  {
    name: 'definition counts UTF-16 columns on a line with non-ASCII text',
    needs: ['definition'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, "' + naïveCafé", { offset: 4 })
      const result = await query({ operation: 'definition', root, path: fixture.path(MAIN), position: at })
      const line = await fixture.lineOf(MAIN, 'export const naïveCafé')
      expect(
        result.locations.some((l) => l.path === fixture.path(MAIN) && covers(l.targetSelectionRange ?? l.range, line)),
        `expected main.ts:${line + 1}, got ${describeLocations(result.locations, root)}`,
      )
      return describeLocations(result.locations, root)
    },
  },
  {
    name: 'declaration lands on the declaration',
    needs: ['declaration'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'totalArea(shapes)')
      const result = await query({ operation: 'declaration', root, path: fixture.path(MAIN), position: at })
      const line = await fixture.lineOf(GEOMETRY, 'export function totalArea')
      expect(
        result.locations.some((l) => l.path === fixture.path(GEOMETRY) && covers(l.range, line)),
        `got ${describeLocations(result.locations, root)}`,
      )
      return describeLocations(result.locations, root)
    },
  },
  {
    name: 'typeDefinition lands on the class of a variable',
    needs: ['typeDefinition'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'circle = new', { offset: 1 })
      const result = await query({ operation: 'typeDefinition', root, path: fixture.path(MAIN), position: at })
      const line = await fixture.lineOf(SHAPES, 'export class Circle')
      expect(
        result.locations.some((l) => l.path === fixture.path(SHAPES) && covers(l.range, line)),
        `expected shapes.ts:${line + 1}, got ${describeLocations(result.locations, root)}`,
      )
      return describeLocations(result.locations, root)
    },
  },
  {
    name: 'implementation finds both implementations of the interface',
    needs: ['implementation'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(SHAPES, 'interface Shape', { offset: 'interface '.length })
      const result = await query({ operation: 'implementation', root, path: fixture.path(SHAPES), position: at })
      for (const name of ['Circle', 'Square']) {
        const line = await fixture.lineOf(SHAPES, `export class ${name}`)
        expect(
          result.locations.some((l) => l.path === fixture.path(SHAPES) && covers(l.range, line)),
          `${name} missing: got ${describeLocations(result.locations, root)}`,
        )
      }
      return describeLocations(result.locations, root)
    },
  },
  {
    name: 'references include the declaration and every use site',
    needs: ['references'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(GEOMETRY, 'function totalArea', { offset: 'function '.length })
      const result = await query({ operation: 'references', root, path: fixture.path(GEOMETRY), position: at })
      const sites = await fixture.occurrences('totalArea')
      expect(sites.length >= 4, `fixture should have at least 4 sites of totalArea, found ${sites.length}`)
      for (const site of sites) {
        const hit = result.locations.some(
          (l) =>
            l.path === site.path &&
            l.range.start.line === site.position.line &&
            l.range.start.character <= site.position.character &&
            site.position.character <= l.range.end.character,
        )
        expect(
          hit,
          `missing ${site.path.slice(root.length + 1)}:${site.position.line + 1}:${site.position.character + 1}; got ${describeLocations(result.locations, root)}`,
        )
      }
      return `${result.locations.length} references`
    },
  },
  {
    name: 'hover shows the declared type',
    needs: ['hover'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'totalArea(shapes)')
      const result = await query({ operation: 'hover', root, path: fixture.path(MAIN), position: at })
      expect(result.hover !== null, 'hover is null')
      expect(
        result.hover.contents.includes('totalArea') && result.hover.contents.includes('number'),
        `hover lacks the signature: ${JSON.stringify(result.hover.contents)}`,
      )
      return result.hover.contents.split('\n')[0] ?? ''
    },
  },
  {
    name: 'hover on a non-ASCII identifier',
    needs: ['hover'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, '=   naïveCafé', { offset: 5 })
      const result = await query({ operation: 'hover', root, path: fixture.path(MAIN), position: at })
      expect(result.hover?.contents.includes('naïveCafé'), `hover does not name naïveCafé: ${JSON.stringify(result.hover?.contents)}`)
      return 'ok'
    },
  },
  {
    name: 'signature help inside a call',
    needs: ['signatureHelp'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'totalArea(shapes)', { offset: 'totalArea('.length })
      const result = await query({ operation: 'signatureHelp', root, path: fixture.path(MAIN), position: at })
      const active = result.signatureHelp?.signatures[result.signatureHelp.activeSignature]
      expect(
        active !== undefined && active.label.includes('shapes'),
        `no signature naming "shapes": ${JSON.stringify(result.signatureHelp)}`,
      )
      return active.label
    },
  },
  {
    name: 'completion lists the members',
    needs: ['completion'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(MAIN, 'circle.radius', { offset: 'circle.'.length })
      const result = await query({ operation: 'completion', root, path: fixture.path(MAIN), position: at })
      const labels = new Set(result.items.map((i) => i.label))
      expect(labels.has('radius') && labels.has('area'), `expected radius and area among ${result.items.length} items`)
      return `${result.items.length} items`
    },
  },
  {
    name: 'prepareRename accepts a symbol and refuses a keyword',
    needs: ['prepareRename'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(SHAPES, 'const renameMe', { offset: 'const '.length })
      const ok = await query({ operation: 'prepareRename', root, path: fixture.path(SHAPES), position: at })
      expect(
        ok.rename.canRename && ok.rename.placeholder === 'renameMe',
        `expected canRename with placeholder renameMe: ${JSON.stringify(ok.rename)}`,
      )
      const keyword = await fixture.locate(SHAPES, 'export const renameMe', { offset: 1 })
      const refused = await query({ operation: 'prepareRename', root, path: fixture.path(SHAPES), position: keyword })
      expect(
        !refused.rename.canRename && refused.rename.reason.length > 0,
        `a keyword should not be renameable: ${JSON.stringify(refused.rename)}`,
      )
      return `refused with: ${refused.rename.reason}`
    },
  },
  {
    name: 'rename touches every file that uses the symbol, and writes nothing',
    needs: ['rename'],
    async run({ fixture, root, query }) {
      const before = await fixture.text(SHAPES)
      const at = await fixture.locate(SHAPES, 'const renameMe', { offset: 'const '.length })
      const result = await query({ operation: 'rename', root, path: fixture.path(SHAPES), position: at, newName: 'renamedConstant' })
      const sites = await fixture.occurrences('renameMe')
      const edits = result.edit.operations.flatMap((op) => (op.type === 'edit' ? op.edits.map((e) => ({ path: op.path, edit: e })) : []))
      for (const site of sites) {
        expect(
          edits.some(
            (e) => e.path === site.path && e.edit.range.start.line === site.position.line && e.edit.newText.includes('renamedConstant'),
          ),
          `no edit at ${site.path.slice(root.length + 1)}:${site.position.line + 1}`,
        )
      }
      expect((await fixture.text(SHAPES)) === before, 'rename must only compute an edit, not write it')
      return `${edits.length} edits in ${new Set(edits.map((e) => e.path)).size} files`
    },
  },
  {
    name: 'format produces edits for a badly formatted line',
    needs: ['format'],
    async run({ fixture, root, query }) {
      const result = await query({ operation: 'format', root, path: fixture.path(MAIN), options: { tabSize: 2, insertSpaces: true } })
      const line = await fixture.lineOf(MAIN, 'export   const    spacedOut')
      const edits = result.edit.operations.flatMap((op) => (op.type === 'edit' && op.path === fixture.path(MAIN) ? op.edits : []))
      expect(
        edits.some((e) => covers(e.range, line)),
        `no format edit on main.ts:${line + 1} (${edits.length} edits)`,
      )
      return `${edits.length} edits`
    },
  },
] as const satisfies ReadonlyArray<CheckSpec>

const fileChecks = [
  {
    name: 'document symbols form a tree with kinds',
    needs: ['documentSymbols'],
    async run({ fixture, root, query }) {
      const result = await query({ operation: 'documentSymbols', root, path: fixture.path(SHAPES) })
      const circle = result.symbols.find((s) => s.name === 'Circle')
      expect(circle?.kind === 'class', `Circle should be a class: ${JSON.stringify(result.symbols.map((s) => [s.name, s.kind]))}`)
      expect(
        circle.children.some((c) => c.name === 'area' && c.kind === 'method'),
        'Circle should contain the method area',
      )
      expect(result.symbols.find((s) => s.name === 'Shape')?.kind === 'interface', 'Shape should be an interface')
      for (const s of result.symbols) {
        expect(covers(s.range, s.selectionRange.start.line), `${s.name}: selectionRange outside range`)
      }
      return result.symbols.map((s) => s.name).join(', ')
    },
  },
  {
    name: 'the deliberate type error is reported at its line',
    needs: ['diagnostics'],
    async run({ fixture, root, query }) {
      const result = await query({ operation: 'diagnostics', root, path: fixture.path(MAIN), waitMs: 20_000 })
      const line = await fixture.lineOf(MAIN, 'export const wrongType')
      const file = result.files.find((f) => f.path === fixture.path(MAIN))
      expect(file !== undefined, `no diagnostics entry for main.ts (files: ${result.files.map((f) => f.path).join(', ')})`)
      expect(
        file.diagnostics.some((d) => d.severity === 'error' && d.range.start.line === line),
        `no error at main.ts:${line + 1}: ${JSON.stringify(file.diagnostics)}`,
      )
      expect(result.coverage.analysed.includes(fixture.path(MAIN)), 'coverage should list main.ts as analysed')
      return `${file.diagnostics.length} diagnostics, ${file.freshness}`
    },
  },
  {
    name: 'inlay hints are positioned inside the document',
    needs: ['inlayHints'],
    async run({ fixture, root, query }) {
      const result = await query({ operation: 'inlayHints', root, path: fixture.path(MAIN) })
      const lineCount = (await fixture.text(MAIN)).split('\n').length
      for (const hint of result.hints) expect(hint.position.line < lineCount, `hint outside the document: ${JSON.stringify(hint)}`)
      return `${result.hints.length} hints`
    },
  },
  {
    name: 'code actions list organize imports, and resolving one computes its edit without writing',
    needs: ['codeActions'],
    async run({ fixture, root, query }) {
      const line = await fixture.lineOf(MAIN, "from './geometry'")
      const range = { start: { line, character: 0 }, end: { line, character: 0 } }
      const listed = await query({ operation: 'codeActions', root, path: fixture.path(MAIN), range, only: ['source.organizeImports'] })
      expect(listed.actions.length > 0, 'no organize-imports action offered for unsorted imports')
      for (const action of listed.actions)
        expect(action.id.length > 0 && action.title.length > 0, `action without id or title: ${JSON.stringify(action)}`)
      return listed.actions.map((a) => a.title).join(', ')
    },
  },
  {
    name: 'resolveCodeAction returns the edit of organize imports',
    needs: ['codeActions', 'resolveCodeAction'],
    async run({ fixture, root, query }) {
      const line = await fixture.lineOf(MAIN, "from './geometry'")
      const range = { start: { line, character: 0 }, end: { line, character: 0 } }
      const listed = await query({ operation: 'codeActions', root, path: fixture.path(MAIN), range, only: ['source.organizeImports'] })
      const action = listed.actions[0]
      expect(action !== undefined, 'no organize-imports action to resolve')
      const before = await fixture.text(MAIN)
      const resolved = await query({ operation: 'resolveCodeAction', root, path: fixture.path(MAIN), actionId: action.id })
      const edits = [resolved.edit, ...(resolved.command?.appliedEdits ?? [])].flatMap((e) => e.operations)
      expect(
        edits.some((op) => op.type === 'edit' && op.path === fixture.path(MAIN) && op.edits.length > 0),
        'the resolution has no edit for main.ts',
      )
      expect((await fixture.text(MAIN)) === before, 'resolving must not write the file')
      return resolved.title
    },
  },
] as const satisfies ReadonlyArray<CheckSpec>

const workspaceChecks = [
  {
    name: 'workspace symbols find a class by name',
    needs: ['workspaceSymbols'],
    async run({ fixture, root, query }) {
      const result = await query({ operation: 'workspaceSymbols', root, query: 'Circle' })
      expect(
        result.symbols.some((s) => s.name === 'Circle' && s.kind === 'class' && s.location.path === fixture.path(SHAPES)),
        `Circle not found: ${JSON.stringify(result.symbols.map((s) => s.name))}`,
      )
      return `${result.symbols.length} symbols`
    },
  },
  {
    name: 'call hierarchy walks callers and callees',
    needs: ['prepareCallHierarchy', 'incomingCalls', 'outgoingCalls'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(GEOMETRY, 'function totalArea', { offset: 'function '.length })
      const prepared = await query({ operation: 'prepareCallHierarchy', root, path: fixture.path(GEOMETRY), position: at })
      const item = prepared.items.find((i) => i.name === 'totalArea')
      expect(item !== undefined, `prepare found no totalArea item: ${JSON.stringify(prepared.items.map((i) => i.name))}`)
      const incoming = await query({ operation: 'incomingCalls', root, item })
      const caller = incoming.calls.find((c) => c.item.name === 'drawAll')
      expect(caller !== undefined, `drawAll should call totalArea: ${JSON.stringify(incoming.calls.map((c) => c.item.name))}`)
      const callLine = await fixture.lineOf(GEOMETRY, '${totalArea(shapes)}')
      expect(
        caller.fromRanges.some((r) => r.start.line === callLine),
        'the call-site range should be on the calling line',
      )
      const outgoing = await query({ operation: 'outgoingCalls', root, item: caller.item })
      expect(
        outgoing.calls.some((c) => c.item.name === 'totalArea'),
        `drawAll's callees should include totalArea: ${JSON.stringify(outgoing.calls.map((c) => c.item.name))}`,
      )
      return `${incoming.calls.length} callers`
    },
  },
  {
    name: 'type hierarchy walks supertypes and subtypes',
    needs: ['prepareTypeHierarchy', 'supertypes', 'subtypes'],
    async run({ fixture, root, query }) {
      const at = await fixture.locate(SHAPES, 'class Circle', { offset: 'class '.length })
      const prepared = await query({ operation: 'prepareTypeHierarchy', root, path: fixture.path(SHAPES), position: at })
      const circle = prepared.items.find((i) => i.name === 'Circle')
      expect(circle !== undefined, 'prepare found no Circle')
      const supers = await query({ operation: 'supertypes', root, item: circle })
      const shape = supers.items.find((i) => i.name === 'Shape')
      expect(shape !== undefined, `Circle's supertypes should include Shape: ${JSON.stringify(supers.items.map((i) => i.name))}`)
      const subs = await query({ operation: 'subtypes', root, item: shape })
      expect(
        ['Circle', 'Square'].every((n) => subs.items.some((i) => i.name === n)),
        'Shape subtypes should include Circle and Square',
      )
      return 'ok'
    },
  },
] as const satisfies ReadonlyArray<CheckSpec>

type KitCheck = (typeof positionChecks)[number] | (typeof fileChecks)[number] | (typeof workspaceChecks)[number]

/** The names of the checks that need operation `O`. */
type ChecksOf<O extends LspOperation> = KitCheck extends infer C
  ? C extends { readonly name: infer N; readonly needs: ReadonlyArray<infer P> }
    ? O extends P
      ? N
      : never
    : never
  : never

/**
 * The checks that hold a provider to each operation. One entry per operation, each naming checks that need
 * it: a new seam operation is a compile error here until the kit has a check for it.
 */
export const checksByOperation = {
  definition: ['definition lands on the declaration', 'definition counts UTF-16 columns on a line with non-ASCII text'],
  typeDefinition: ['typeDefinition lands on the class of a variable'],
  declaration: ['declaration lands on the declaration'],
  implementation: ['implementation finds both implementations of the interface'],
  references: ['references include the declaration and every use site'],
  hover: ['hover shows the declared type', 'hover on a non-ASCII identifier'],
  signatureHelp: ['signature help inside a call'],
  documentSymbols: ['document symbols form a tree with kinds'],
  workspaceSymbols: ['workspace symbols find a class by name'],
  prepareCallHierarchy: ['call hierarchy walks callers and callees'],
  incomingCalls: ['call hierarchy walks callers and callees'],
  outgoingCalls: ['call hierarchy walks callers and callees'],
  prepareTypeHierarchy: ['type hierarchy walks supertypes and subtypes'],
  supertypes: ['type hierarchy walks supertypes and subtypes'],
  subtypes: ['type hierarchy walks supertypes and subtypes'],
  diagnostics: ['the deliberate type error is reported at its line'],
  inlayHints: ['inlay hints are positioned inside the document'],
  completion: ['completion lists the members'],
  codeActions: ['code actions list organize imports, and resolving one computes its edit without writing'],
  prepareRename: ['prepareRename accepts a symbol and refuses a keyword'],
  rename: ['rename touches every file that uses the symbol, and writes nothing'],
  format: ['format produces edits for a badly formatted line'],
  resolveCodeAction: ['resolveCodeAction returns the edit of organize imports'],
} as const satisfies { readonly [O in LspOperation]: ReadonlyArray<ChecksOf<O>> }

/** An answer a provider derived (meta.derived), recorded for {@link derivedCheck}. */
interface DerivedAnswer {
  readonly operation: LspOperation
  readonly derivation: LspDerivation
}

/**
 * A derived answer (RFC 0010) must say what it was built from: native operations of the vocabulary that
 * the provider claims, never the derived operation itself; unresolved bases are names, never empty.
 */
function derivedCheck(answers: ReadonlyArray<DerivedAnswer>, claimed: ReadonlySet<LspOperation>): ConformanceCheck {
  const name = 'derived answers say which native operations they were built from'
  const problems = answers.flatMap(({ operation, derivation }) => {
    const from = Array.isArray(derivation.from) ? derivation.from : []
    return [
      ...(from.length === 0 ? [`${operation}: meta.derived.from is empty`] : []),
      ...from.filter((o) => !lspOperations.includes(o)).map((o) => `${operation}: "${String(o)}" is not an operation`),
      ...from.filter((o) => o === operation).map(() => `${operation}: derived from itself`),
      ...from
        .filter((o) => lspOperations.includes(o) && !claimed.has(o))
        .map((o) => `${operation}: built from ${o}, which the provider does not claim`),
      ...(derivation.unresolved ?? [])
        .filter((u) => typeof u !== 'string' || u.length === 0)
        .map(() => `${operation}: an unresolved base without a name`),
    ]
  })
  if (problems.length > 0) return { name, status: 'failed', message: problems.slice(0, 5).join('; ') }
  const operations = [...new Set(answers.map((a) => a.operation))]
  return {
    name,
    status: 'passed',
    message:
      answers.length === 0
        ? 'no answer was derived (every operation native)'
        : `${answers.length} derived answers: ${operations.join(', ')}`,
  }
}

/** Locations carried by a result, for the containment check. */
function locationsOf(result: LspQueryResult): string[] {
  switch (result.kind) {
    case 'locations':
      return result.locations.map((l) => l.path)
    case 'workspaceSymbols':
      return result.symbols.map((s) => s.location.path)
    case 'hierarchyItems':
      return result.items.map((i) => i.path)
    case 'hierarchyCalls':
      return result.calls.map((c) => c.item.path)
    case 'diagnostics':
      return result.files.map((f) => f.path)
    case 'workspaceEdit':
      return result.edit.operations.flatMap((op) => (op.type === 'rename' ? [op.oldPath, op.newPath] : [op.path]))
    case 'codeActionResolution':
      return [result.edit, ...(result.command?.appliedEdits ?? [])].flatMap((e) =>
        e.operations.flatMap((op) => (op.type === 'rename' ? [op.oldPath, op.newPath] : [op.path])),
      )
    case 'hover':
    case 'signatureHelp':
    case 'documentSymbols':
    case 'inlayHints':
    case 'completion':
    case 'codeActions':
    case 'prepareRename':
      return []
  }
}

async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(new CheckFailure(`no answer within ${ms} ms`))
    }, ms)
  })
  try {
    return await Promise.race([run(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs the conformance suite against a provider. Plain library: no test framework needed, so it also runs
 * inside a VS Code extension host. Every claimed operation is checked against answers located by text in
 * the fixture; plus registration, result kinds, containment and typed errors.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const fixture = await copyFixture(options.fixtureDir ?? conformanceFixtureDir)
  const checkTimeoutMs = options.checkTimeoutMs ?? 60_000
  const checks: ConformanceCheck[] = []
  let subject: ConformanceSubject | undefined
  let providerIdText = '(unknown)'
  try {
    subject = await options.setup(fixture.root)
    const { provider } = subject
    providerIdText = String(provider.id)

    // Registration: the provider's declaration must be acceptable to the registry.
    const lsp = createLsp()
    try {
      lsp.registerProvider({ ...provider, query: provider.query.bind(provider), dispose: () => {} })
      checks.push({ name: 'registers with ctx.lsp', status: 'passed', message: `claims ${Object.keys(provider.extensions).join(' ')}` })
    } catch (error) {
      checks.push({ name: 'registers with ctx.lsp', status: 'failed', message: error instanceof Error ? error.message : String(error) })
    } finally {
      await lsp.dispose()
    }

    const claimed = new Set(provider.operations)
    const outside: string[] = []
    const languageIdFor = (path: string) => {
      const extension = extensionOf(path) ?? ''
      const entry = Object.entries(provider.extensions).find(
        ([key]) => key.toLowerCase() === extension || `.${key.toLowerCase()}` === extension,
      )
      return entry?.[1] ?? 'typescript'
    }
    const derived: DerivedAnswer[] = []
    const query = async <R extends LspQueryRequest>(request: R, signal?: AbortSignal): Promise<LspResultFor<R['operation']>> => {
      const path =
        'path' in request && typeof request.path === 'string' ? request.path : 'item' in request ? request.item.path : fixture.path(MAIN)
      const result = (await provider.query(
        { ...request, languageId: languageIdFor(path) },
        signal ?? new AbortController().signal,
      )) as LspQueryResult
      const expected = resultKindByOperation[request.operation]
      if (result === null || typeof result !== 'object' || result.kind !== expected) {
        throw new CheckFailure(
          `${request.operation} answered with kind "${String((result as { kind?: unknown } | null)?.kind)}", expected "${expected}"`,
        )
      }
      for (const path of locationsOf(result)) if (!isWithin(fixture.root, path)) outside.push(`${request.operation}: ${path}`)
      if (result.meta.derived !== undefined) derived.push({ operation: request.operation, derivation: result.meta.derived })
      return result as LspResultFor<R['operation']>
    }
    const context: CheckContext = { fixture, root: fixture.root, query, outside }

    for (const spec of [...fileChecks, ...positionChecks, ...workspaceChecks]) {
      const operation = spec.needs[0]
      const missing = spec.needs.filter((op) => !claimed.has(op))
      if (missing.length > 0) {
        checks.push({
          name: spec.name,
          ...(operation ? { operation } : {}),
          status: 'skipped',
          message: `provider does not claim ${missing.join(', ')}`,
        })
        continue
      }
      try {
        const message = await withTimeout(checkTimeoutMs, () => spec.run(context))
        checks.push({ name: spec.name, ...(operation ? { operation } : {}), status: 'passed', message })
      } catch (error) {
        const message =
          error instanceof CheckFailure
            ? error.message
            : error instanceof LspError
              ? `threw LspError ${error.code}: ${error.message}`
              : `threw an untyped error: ${error instanceof Error ? error.message : String(error)}`
        checks.push({ name: spec.name, ...(operation ? { operation } : {}), status: 'failed', message })
      }
    }

    checks.push(derivedCheck(derived, claimed))
    checks.push(
      outside.length === 0
        ? { name: 'no result points outside the workspace root', status: 'passed', message: 'all paths contained' }
        : { name: 'no result points outside the workspace root', status: 'failed', message: outside.slice(0, 5).join('; ') },
    )

    // Typed errors: a failure must be an LspError, never an empty result or a foreign error.
    const probe = provider.operations.includes('definition') ? 'definition' : provider.operations.includes('hover') ? 'hover' : undefined
    if (probe === undefined) {
      checks.push({
        name: 'a missing file fails with a typed LspError',
        status: 'skipped',
        message: 'provider claims neither definition nor hover',
      })
    } else {
      const missingPath = fixture.path('src/does-not-exist.ts')
      try {
        const result = await withTimeout(checkTimeoutMs, (signal) =>
          provider.query(
            {
              operation: probe,
              root: fixture.root,
              path: missingPath,
              position: { line: 0, character: 0 },
              languageId: languageIdFor(missingPath),
            },
            signal,
          ),
        )
        checks.push({
          name: 'a missing file fails with a typed LspError',
          status: 'failed',
          message: `answered ${JSON.stringify(result).slice(0, 120)} instead of failing`,
        })
      } catch (error) {
        checks.push(
          error instanceof LspError
            ? { name: 'a missing file fails with a typed LspError', status: 'passed', message: error.code }
            : {
                name: 'a missing file fails with a typed LspError',
                status: 'failed',
                message: `threw an untyped error: ${error instanceof Error ? error.message : String(error)}`,
              },
        )
      }
      const aborted = new AbortController()
      aborted.abort()
      try {
        await withTimeout(checkTimeoutMs, () =>
          provider.query(
            {
              operation: probe,
              root: fixture.root,
              path: fixture.path(MAIN),
              position: { line: 0, character: 0 },
              languageId: languageIdFor(fixture.path(MAIN)),
            },
            aborted.signal,
          ),
        )
        checks.push({ name: 'an aborted request fails with CANCELLED', status: 'failed', message: 'answered despite an aborted signal' })
      } catch (error) {
        checks.push(
          error instanceof LspError && error.code === 'CANCELLED'
            ? { name: 'an aborted request fails with CANCELLED', status: 'passed', message: 'CANCELLED' }
            : {
                name: 'an aborted request fails with CANCELLED',
                status: 'failed',
                message: error instanceof LspError ? `got ${error.code}` : `threw an untyped error: ${String(error)}`,
              },
        )
      }
    }

    if (subject.workspace !== undefined) {
      const workspace = subject.workspace
      try {
        const snapshot = await workspace.readFile(fixture.path(MAIN))
        expect(snapshot.text === (await fixture.text(MAIN)), 'readFile returned different text than the file holds')
        let escaped = false
        try {
          await workspace.readFile(fixture.path('../../etc/passwd'))
          escaped = true
        } catch (error) {
          expect(error instanceof LspError, 'reading outside the root must fail with an LspError')
        }
        expect(!escaped, 'the workspace read a file outside its root')
        checks.push({ name: 'workspace reads files and refuses paths outside the root', status: 'passed', message: 'ok' })
      } catch (error) {
        checks.push({
          name: 'workspace reads files and refuses paths outside the root',
          status: 'failed',
          message: error instanceof Error ? error.message : String(error),
        })
      }
    }
  } catch (error) {
    checks.push({ name: 'setup', status: 'failed', message: error instanceof Error ? error.message : String(error) })
  } finally {
    try {
      await subject?.dispose?.()
    } finally {
      await fixture.dispose()
    }
  }
  const counts = {
    passed: checks.filter((c) => c.status === 'passed').length,
    failed: checks.filter((c) => c.status === 'failed').length,
    skipped: checks.filter((c) => c.status === 'skipped').length,
  }
  return { providerId: providerIdText, passed: counts.failed === 0 && counts.passed > 0, checks, counts }
}

/** A readable report: one line per check, failures first. */
export function formatConformanceReport(report: ConformanceReport): string {
  const order = { failed: 0, passed: 1, skipped: 2 } as const
  const lines = [...report.checks]
    .sort((a, b) => order[a.status] - order[b.status])
    .map(
      (c) => `${c.status === 'passed' ? 'PASS' : c.status === 'failed' ? 'FAIL' : 'SKIP'}  ${c.name}${c.message ? ` — ${c.message}` : ''}`,
    )
  return [
    `conformance of provider "${report.providerId}": ${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.skipped} skipped`,
    ...lines,
  ].join('\n')
}
