import type {
  LspDocumentSymbol,
  LspLocation,
  LspOperation,
  LspPosition,
  LspQueryRequest,
  LspRange,
  LspResultFor,
  LspWorkspaceEditOperation,
} from '../vocabulary.js'
import type { ConformanceCheckId, ConformanceFixture, FixtureField, FixtureSite } from './fixture-record.js'
import type { FixtureWorkspace } from './fixture.js'

// What every check of the kit is built from: the check declaration, finding a record's sites in the fixture
// copy, and the comparisons and descriptions the checks share.

/** A check's failure, with the message the report shows. */
export class CheckFailure extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message)
}

export function covers(range: LspRange, line: number): boolean {
  return range.start.line <= line && line <= range.end.line
}

/** What a check gets: the fixture copy and a query that checks the result kind and containment. */
export interface CheckContext {
  readonly fixture: FixtureWorkspace
  readonly root: string
  query<R extends LspQueryRequest>(request: R, signal?: AbortSignal): Promise<LspResultFor<R['operation']>>
}

/** The record's fields a check reads, present. */
export type Fields<K extends FixtureField> = { readonly [P in K]-?: NonNullable<ConformanceFixture[P]> }

/** One check of the kit, as the runner sees it. */
export interface CheckSpec<N extends string = string, O extends LspOperation = LspOperation> {
  readonly id: ConformanceCheckId
  readonly name: N
  /** Operations the provider must claim for the check to run (all of them). */
  readonly needs: ReadonlyArray<O>
  /** The record's fields it reads: without one, the check is skipped naming it. */
  readonly uses: ReadonlyArray<FixtureField>
  run(context: CheckContext, record: ConformanceFixture): Promise<string>
}

/** Declares a check; `run` gets the fields it names in `uses`, present. */
export function check<const N extends string, const O extends LspOperation, const K extends FixtureField>(spec: {
  readonly id: ConformanceCheckId
  readonly name: N
  readonly needs: ReadonlyArray<O>
  readonly uses: ReadonlyArray<K>
  run(context: CheckContext, fields: Fields<K>): Promise<string>
}): CheckSpec<N, O> {
  // The runner calls run only when every field of `uses` is present.
  return { ...spec, run: (context, record) => spec.run(context, record as unknown as Fields<K>) }
}

/** Where a site is: path, position and a readable `file:line`. */
export interface Found {
  readonly path: string
  readonly position: LspPosition
  readonly line: number
  readonly where: string
}

export async function find(fixture: FixtureWorkspace, site: FixtureSite): Promise<Found> {
  let position: LspPosition
  try {
    position = await fixture.find(site)
  } catch (error) {
    throw new CheckFailure(error instanceof Error ? error.message : String(error))
  }
  return { path: fixture.path(site.file), position, line: position.line, where: `${site.file}:${position.line + 1}` }
}

export function describeLocations(locations: ReadonlyArray<LspLocation>, root: string): string {
  if (locations.length === 0) return 'no locations'
  return locations.map((l) => `${l.path.slice(root.length + 1)}:${l.range.start.line + 1}`).join(', ')
}

/** Whether a location lands on the site's line (on its selection range, when `selection` and it has one). */
export function landsOn(locations: ReadonlyArray<LspLocation>, target: Found, selection: boolean): boolean {
  return locations.some((l) => l.path === target.path && covers(selection ? (l.targetSelectionRange ?? l.range) : l.range, target.line))
}

/** Completion labels and symbol names as bare names: servers decorate them (`area()`, ` area() const`). */
export function bare(label: string): string {
  // `area()`, `area(): float`, and JDT LS's `radius : double`: the name before the signature or the type.
  return label
    .trim()
    .replace(/\(.*$/, '')
    .replace(/\s+:\s.*$/, '')
}

export function textEdits(operations: ReadonlyArray<LspWorkspaceEditOperation>) {
  return operations.flatMap((op) => (op.type === 'edit' ? op.edits.map((edit) => ({ path: op.path, edit })) : []))
}

export function describeSymbols(symbols: ReadonlyArray<LspDocumentSymbol>): string {
  return JSON.stringify(symbols.map((s) => [s.name, s.kind, ...s.children.map((c) => `${c.name}:${c.kind}`)]))
}

/** Text before a position on its line. */
export async function linePrefix(fixture: FixtureWorkspace, file: string, position: LspPosition): Promise<string> {
  const line = (await fixture.text(file)).split('\n')[position.line] ?? ''
  return line.slice(0, position.character)
}
