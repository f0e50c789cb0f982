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

/** A check's failure, with the message the report shows. */
export class CheckFailure extends Error {}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message)
}

function covers(range: LspRange, line: number): boolean {
  return range.start.line <= line && line <= range.end.line
}

/** What a check gets: the fixture copy and a query that checks the result kind and containment. */
export interface CheckContext {
  readonly fixture: FixtureWorkspace
  readonly root: string
  query<R extends LspQueryRequest>(request: R, signal?: AbortSignal): Promise<LspResultFor<R['operation']>>
}

/** The record's fields a check reads, present. */
type Fields<K extends FixtureField> = { readonly [P in K]-?: NonNullable<ConformanceFixture[P]> }

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
function check<const N extends string, const O extends LspOperation, const K extends FixtureField>(spec: {
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
interface Found {
  readonly path: string
  readonly position: LspPosition
  readonly line: number
  readonly where: string
}

async function find(fixture: FixtureWorkspace, site: FixtureSite): Promise<Found> {
  let position: LspPosition
  try {
    position = await fixture.find(site)
  } catch (error) {
    throw new CheckFailure(error instanceof Error ? error.message : String(error))
  }
  return { path: fixture.path(site.file), position, line: position.line, where: `${site.file}:${position.line + 1}` }
}

function describeLocations(locations: ReadonlyArray<LspLocation>, root: string): string {
  if (locations.length === 0) return 'no locations'
  return locations.map((l) => `${l.path.slice(root.length + 1)}:${l.range.start.line + 1}`).join(', ')
}

/** Whether a location lands on the site's line (on its selection range, when `selection` and it has one). */
function landsOn(locations: ReadonlyArray<LspLocation>, target: Found, selection: boolean): boolean {
  return locations.some((l) => l.path === target.path && covers(selection ? (l.targetSelectionRange ?? l.range) : l.range, target.line))
}

/** Completion labels and symbol names as bare names: servers decorate them (`area()`, ` area() const`). */
function bare(label: string): string {
  return label.trim().replace(/\(.*$/, '')
}

function textEdits(operations: ReadonlyArray<LspWorkspaceEditOperation>) {
  return operations.flatMap((op) => (op.type === 'edit' ? op.edits.map((edit) => ({ path: op.path, edit })) : []))
}

function describeSymbols(symbols: ReadonlyArray<LspDocumentSymbol>): string {
  return JSON.stringify(symbols.map((s) => [s.name, s.kind, ...s.children.map((c) => `${c.name}:${c.kind}`)]))
}

/** Text before a position on its line. */
async function linePrefix(fixture: FixtureWorkspace, file: string, position: LspPosition): Promise<string> {
  const line = (await fixture.text(file)).split('\n')[position.line] ?? ''
  return line.slice(0, position.character)
}

export const positionChecks = [
  check({
    id: 'definition',
    name: 'definition lands on the declaration',
    needs: ['definition'],
    uses: ['definition'],
    async run({ fixture, root, query }, { definition }) {
      const use = await find(fixture, definition.use)
      const target = await find(fixture, definition.declaration)
      const result = await query({ operation: 'definition', root, path: use.path, position: use.position })
      expect(landsOn(result.locations, target, true), `expected ${target.where}, got ${describeLocations(result.locations, root)}`)
      return describeLocations(result.locations, root)
    },
  }),
  check({
    id: 'definitionUtf16',
    name: 'definition counts UTF-16 columns on a line with non-ASCII text',
    needs: ['definition'],
    uses: ['nonAscii'],
    async run({ fixture, root, query }, { nonAscii }) {
      const use = await find(fixture, nonAscii.use)
      const before = await linePrefix(fixture, nonAscii.use.file, use.position)
      expect(
        [...before].some((c) => (c.codePointAt(0) ?? 0) > 0xffff),
        `the fixture's use of ${nonAscii.name} (${use.where}) should follow a character outside the BMP on its line`,
      )
      const target = await find(fixture, nonAscii.declaration)
      const result = await query({ operation: 'definition', root, path: use.path, position: use.position })
      expect(landsOn(result.locations, target, true), `expected ${target.where}, got ${describeLocations(result.locations, root)}`)
      return describeLocations(result.locations, root)
    },
  }),
  check({
    id: 'declaration',
    name: 'declaration lands on the declaration',
    needs: ['declaration'],
    uses: ['definition'],
    async run({ fixture, root, query }, { definition }) {
      const use = await find(fixture, definition.use)
      const target = await find(fixture, definition.declaration)
      const result = await query({ operation: 'declaration', root, path: use.path, position: use.position })
      expect(landsOn(result.locations, target, false), `expected ${target.where}, got ${describeLocations(result.locations, root)}`)
      return describeLocations(result.locations, root)
    },
  }),
  check({
    id: 'typeDefinition',
    name: 'typeDefinition lands on the type of a variable',
    needs: ['typeDefinition'],
    uses: ['typeDefinition'],
    async run({ fixture, root, query }, { typeDefinition }) {
      const use = await find(fixture, typeDefinition.use)
      const target = await find(fixture, typeDefinition.type)
      const result = await query({ operation: 'typeDefinition', root, path: use.path, position: use.position })
      expect(landsOn(result.locations, target, false), `expected ${target.where}, got ${describeLocations(result.locations, root)}`)
      return describeLocations(result.locations, root)
    },
  }),
  check({
    id: 'implementation',
    name: 'implementation finds every implementation of the interface',
    needs: ['implementation'],
    uses: ['implementation'],
    async run({ fixture, root, query }, { implementation }) {
      const type = await find(fixture, implementation.type)
      const result = await query({ operation: 'implementation', root, path: type.path, position: type.position })
      for (const site of implementation.implementations) {
        const target = await find(fixture, site)
        expect(
          landsOn(result.locations, target, false),
          `${site.text} (${target.where}) missing: got ${describeLocations(result.locations, root)}`,
        )
      }
      return describeLocations(result.locations, root)
    },
  }),
  check({
    id: 'references',
    name: 'references include the declaration and every use site',
    needs: ['references'],
    uses: ['references'],
    async run({ fixture, root, query }, { references }) {
      const declaration = await find(fixture, references.declaration)
      const result = await query({ operation: 'references', root, path: declaration.path, position: declaration.position })
      const sites = await fixture.occurrences(references.word)
      expect(
        new Set(sites.map((s) => s.path)).size >= 2,
        `the fixture should use ${references.word} in at least two files, found ${sites.length} sites`,
      )
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
  }),
  check({
    id: 'hover',
    name: 'hover shows the declared type',
    needs: ['hover'],
    uses: ['hover'],
    async run({ fixture, root, query }, { hover }) {
      const at = await find(fixture, hover.at)
      const result = await query({ operation: 'hover', root, path: at.path, position: at.position })
      const contents = result.hover?.contents
      expect(contents !== undefined, 'hover is null')
      const missing = hover.includes.filter((text) => !contents.includes(text))
      expect(missing.length === 0, `hover lacks ${missing.join(', ')}: ${JSON.stringify(contents)}`)
      return contents.split('\n').find((line) => line.includes(hover.includes[0] ?? '')) ?? ''
    },
  }),
  check({
    id: 'hoverNonAscii',
    name: 'hover on a non-ASCII identifier',
    needs: ['hover'],
    uses: ['nonAscii'],
    async run({ fixture, root, query }, { nonAscii }) {
      const at = await find(fixture, nonAscii.use)
      const result = await query({ operation: 'hover', root, path: at.path, position: at.position })
      expect(
        result.hover?.contents.includes(nonAscii.name),
        `hover does not name ${nonAscii.name}: ${JSON.stringify(result.hover?.contents)}`,
      )
      return 'ok'
    },
  }),
  check({
    id: 'signatureHelp',
    name: 'signature help inside a call',
    needs: ['signatureHelp'],
    uses: ['signatureHelp'],
    async run({ fixture, root, query }, { signatureHelp }) {
      const at = await find(fixture, signatureHelp.at)
      const result = await query({ operation: 'signatureHelp', root, path: at.path, position: at.position })
      const active = result.signatureHelp?.signatures[result.signatureHelp.activeSignature]
      expect(
        active !== undefined && active.label.includes(signatureHelp.label),
        `no signature naming "${signatureHelp.label}": ${JSON.stringify(result.signatureHelp)}`,
      )
      return active.label
    },
  }),
  check({
    id: 'completion',
    name: 'completion lists the members',
    needs: ['completion'],
    uses: ['completion'],
    async run({ fixture, root, query }, { completion }) {
      const at = await find(fixture, completion.at)
      const result = await query({ operation: 'completion', root, path: at.path, position: at.position })
      const labels = new Set(result.items.map((i) => bare(i.label)))
      const missing = completion.labels.filter((label) => !labels.has(label))
      expect(missing.length === 0, `${missing.join(' and ')} not among ${result.items.length} items`)
      return `${result.items.length} items`
    },
  }),
  check({
    id: 'prepareRename',
    name: 'prepareRename accepts a symbol and refuses a keyword',
    needs: ['prepareRename'],
    uses: ['rename', 'keyword'],
    async run({ fixture, root, query }, { rename, keyword }) {
      const at = await find(fixture, rename.symbol)
      const ok = await query({ operation: 'prepareRename', root, path: at.path, position: at.position })
      expect(
        ok.rename.canRename && ok.rename.placeholder === rename.name,
        `expected canRename with placeholder ${rename.name}: ${JSON.stringify(ok.rename)}`,
      )
      const word = await find(fixture, keyword)
      const refused = await query({ operation: 'prepareRename', root, path: word.path, position: word.position })
      expect(
        !refused.rename.canRename && refused.rename.reason.length > 0,
        `a keyword (${word.where}) should not be renameable: ${JSON.stringify(refused.rename)}`,
      )
      return `refused with: ${refused.rename.reason}`
    },
  }),
  check({
    id: 'rename',
    name: 'rename touches every file that uses the symbol, and writes nothing',
    needs: ['rename'],
    uses: ['rename'],
    async run({ fixture, root, query }, { rename }) {
      const at = await find(fixture, rename.symbol)
      const sites = await fixture.occurrences(rename.name)
      const files = [...new Set(sites.map((s) => s.path))]
      const before = await Promise.all(files.map((file) => fixture.text(file.slice(root.length + 1))))
      const result = await query({ operation: 'rename', root, path: at.path, position: at.position, newName: rename.newName })
      const edits = textEdits(result.edit.operations)
      for (const site of sites) {
        expect(
          edits.some(
            (e) => e.path === site.path && e.edit.range.start.line === site.position.line && e.edit.newText.includes(rename.newName),
          ),
          `no edit at ${site.path.slice(root.length + 1)}:${site.position.line + 1}`,
        )
      }
      const after = await Promise.all(files.map((file) => fixture.text(file.slice(root.length + 1))))
      expect(
        after.every((text, index) => text === before[index]),
        'rename must only compute an edit, not write it',
      )
      return `${edits.length} edits in ${new Set(edits.map((e) => e.path)).size} files`
    },
  }),
  check({
    id: 'format',
    name: 'format produces edits for a badly formatted line',
    needs: ['format'],
    uses: ['unformatted'],
    async run({ fixture, root, query }, { unformatted }) {
      const line = await find(fixture, unformatted)
      const result = await query({ operation: 'format', root, path: line.path, options: { tabSize: 2, insertSpaces: true } })
      const edits = textEdits(result.edit.operations).filter((e) => e.path === line.path)
      expect(
        edits.some((e) => covers(e.edit.range, line.line)),
        `no format edit on ${line.where} (${edits.length} edits)`,
      )
      return `${edits.length} edits`
    },
  }),
] as const satisfies ReadonlyArray<CheckSpec>

export const fileChecks = [
  check({
    id: 'documentSymbols',
    name: 'document symbols form a tree with kinds',
    needs: ['documentSymbols'],
    uses: ['documentSymbols'],
    async run({ fixture, root, query }, { documentSymbols }) {
      const result = await query({ operation: 'documentSymbols', root, path: fixture.path(documentSymbols.file) })
      for (const expected of documentSymbols.symbols) {
        const symbol = result.symbols.find((s) => s.name === expected.name || bare(s.name) === expected.name)
        expect(
          symbol?.kind === expected.kind,
          `${expected.name} should be a top-level ${expected.kind}: ${describeSymbols(result.symbols)}`,
        )
        for (const child of expected.children ?? []) {
          expect(
            symbol.children.some((c) => (c.name === child.name || bare(c.name) === child.name) && c.kind === child.kind),
            `${expected.name} should contain the ${child.kind} ${child.name}: ${describeSymbols(result.symbols)}`,
          )
        }
      }
      for (const s of result.symbols) {
        expect(covers(s.range, s.selectionRange.start.line), `${s.name}: selectionRange outside range`)
      }
      return result.symbols.map((s) => s.name).join(', ')
    },
  }),
  check({
    id: 'diagnostics',
    name: 'the deliberate type error is reported at its line',
    needs: ['diagnostics'],
    uses: ['typeError'],
    async run({ fixture, root, query }, { typeError }) {
      const line = await find(fixture, typeError)
      const result = await query({ operation: 'diagnostics', root, path: line.path, waitMs: 20_000 })
      const file = result.files.find((f) => f.path === line.path)
      expect(
        file !== undefined,
        `no diagnostics entry for ${typeError.file} (files: ${result.files.map((f) => f.path.slice(root.length + 1)).join(', ')})`,
      )
      expect(
        file.diagnostics.some((d) => d.severity === 'error' && d.range.start.line === line.line),
        `no error at ${line.where}: ${JSON.stringify(file.diagnostics)}`,
      )
      expect(result.coverage.analysed.includes(line.path), `coverage should list ${typeError.file} as analysed`)
      return `${file.diagnostics.length} diagnostics, ${file.freshness}`
    },
  }),
  check({
    id: 'inlayHints',
    name: 'inlay hints are positioned inside the document',
    needs: ['inlayHints'],
    uses: ['inlayHints'],
    async run({ fixture, root, query }, { inlayHints }) {
      const result = await query({ operation: 'inlayHints', root, path: fixture.path(inlayHints.file) })
      const lineCount = (await fixture.text(inlayHints.file)).split('\n').length
      for (const hint of result.hints) expect(hint.position.line < lineCount, `hint outside the document: ${JSON.stringify(hint)}`)
      return `${result.hints.length} hints`
    },
  }),
  check({
    id: 'codeActions',
    name: 'code actions offer the expected action, each with an id and a title',
    needs: ['codeActions'],
    uses: ['codeAction'],
    async run({ fixture, root, query }, { codeAction }) {
      const action = await listActions(fixture, root, query, codeAction)
      return action.titles.join(', ')
    },
  }),
  check({
    id: 'resolveCodeAction',
    name: 'resolveCodeAction computes the edit of the expected action, without writing',
    needs: ['codeActions', 'resolveCodeAction'],
    uses: ['codeAction'],
    async run({ fixture, root, query }, { codeAction }) {
      const { action, path } = await listActions(fixture, root, query, codeAction)
      const before = await fixture.text(codeAction.at.file)
      const resolved = await query({ operation: 'resolveCodeAction', root, path, actionId: action.id })
      const edits = [resolved.edit, ...(resolved.command?.appliedEdits ?? [])].flatMap((e) => e.operations)
      expect(
        edits.some((op) => op.type === 'edit' && op.path === path && op.edits.length > 0),
        `the resolution of "${action.title}" has no edit for ${codeAction.at.file}`,
      )
      expect((await fixture.text(codeAction.at.file)) === before, 'resolving must not write the file')
      return resolved.title
    },
  }),
] as const satisfies ReadonlyArray<CheckSpec>

/** Lists the code actions at the record's site and picks the expected one. */
async function listActions(
  fixture: FixtureWorkspace,
  root: string,
  query: CheckContext['query'],
  codeAction: NonNullable<ConformanceFixture['codeAction']>,
) {
  const at = await find(fixture, codeAction.at)
  const range = { start: at.position, end: at.position }
  const listed = await query({
    operation: 'codeActions',
    root,
    path: at.path,
    range,
    ...(codeAction.only !== undefined ? { only: codeAction.only } : {}),
  })
  const wanted = codeAction.title?.toLowerCase()
  const action = listed.actions.find((a) => wanted === undefined || a.title.toLowerCase().includes(wanted))
  expect(
    action !== undefined,
    `no action${wanted === undefined ? '' : ` titled "${codeAction.title}"`} offered at ${at.where}${codeAction.only ? ` (only ${codeAction.only.join(', ')})` : ''}: ${JSON.stringify(listed.actions.map((a) => a.title))}`,
  )
  for (const a of listed.actions) expect(a.id.length > 0 && a.title.length > 0, `action without id or title: ${JSON.stringify(a)}`)
  return { action, path: at.path, titles: listed.actions.map((a) => a.title) }
}

export const workspaceChecks = [
  check({
    id: 'workspaceSymbols',
    name: 'workspace symbols find a type by name',
    needs: ['workspaceSymbols'],
    uses: ['workspaceSymbol'],
    async run({ fixture, root, query }, { workspaceSymbol }) {
      const result = await query({ operation: 'workspaceSymbols', root, query: workspaceSymbol.query })
      expect(
        result.symbols.some(
          (s) =>
            s.name === workspaceSymbol.name && s.kind === workspaceSymbol.kind && s.location.path === fixture.path(workspaceSymbol.file),
        ),
        `${workspaceSymbol.kind} ${workspaceSymbol.name} of ${workspaceSymbol.file} not found: ${JSON.stringify(result.symbols.map((s) => [s.name, s.kind]))}`,
      )
      return `${result.symbols.length} symbols`
    },
  }),
  check({
    id: 'callHierarchy',
    name: 'call hierarchy walks callers and callees',
    needs: ['prepareCallHierarchy', 'incomingCalls', 'outgoingCalls'],
    uses: ['callHierarchy'],
    async run({ fixture, root, query }, { callHierarchy }) {
      const callee = await find(fixture, callHierarchy.callee)
      const prepared = await query({ operation: 'prepareCallHierarchy', root, path: callee.path, position: callee.position })
      const item = prepared.items.find((i) => i.name === callHierarchy.name)
      expect(item !== undefined, `prepare found no ${callHierarchy.name} item: ${JSON.stringify(prepared.items.map((i) => i.name))}`)
      const incoming = await query({ operation: 'incomingCalls', root, item })
      const caller = incoming.calls.find((c) => c.item.name === callHierarchy.caller)
      expect(
        caller !== undefined,
        `${callHierarchy.caller} should call ${callHierarchy.name}: ${JSON.stringify(incoming.calls.map((c) => c.item.name))}`,
      )
      const call = await find(fixture, callHierarchy.callSite)
      expect(
        caller.fromRanges.some((r) => r.start.line === call.line),
        `the call-site range should be on the calling line ${call.where}: ${JSON.stringify(caller.fromRanges)}`,
      )
      const outgoing = await query({ operation: 'outgoingCalls', root, item: caller.item })
      expect(
        outgoing.calls.some((c) => c.item.name === callHierarchy.name),
        `${callHierarchy.caller}'s callees should include ${callHierarchy.name}: ${JSON.stringify(outgoing.calls.map((c) => c.item.name))}`,
      )
      return `${incoming.calls.length} callers`
    },
  }),
  check({
    id: 'typeHierarchy',
    name: 'type hierarchy walks supertypes and subtypes',
    needs: ['prepareTypeHierarchy', 'supertypes', 'subtypes'],
    uses: ['typeHierarchy'],
    async run({ fixture, root, query }, { typeHierarchy }) {
      const type = await find(fixture, typeHierarchy.type)
      const prepared = await query({ operation: 'prepareTypeHierarchy', root, path: type.path, position: type.position })
      const item = prepared.items.find((i) => i.name === typeHierarchy.name)
      expect(item !== undefined, `prepare found no ${typeHierarchy.name}: ${JSON.stringify(prepared.items.map((i) => i.name))}`)
      const supers = await query({ operation: 'supertypes', root, item })
      const base = supers.items.find((i) => i.name === typeHierarchy.supertype)
      expect(
        base !== undefined,
        `${typeHierarchy.name}'s supertypes should include ${typeHierarchy.supertype}: ${JSON.stringify(supers.items.map((i) => i.name))}`,
      )
      const subs = await query({ operation: 'subtypes', root, item: base })
      const missing = typeHierarchy.subtypes.filter((n) => !subs.items.some((i) => i.name === n))
      expect(
        missing.length === 0,
        `${typeHierarchy.supertype}'s subtypes should include ${missing.join(' and ')}: ${JSON.stringify(subs.items.map((i) => i.name))}`,
      )
      return 'ok'
    },
  }),
] as const satisfies ReadonlyArray<CheckSpec>

/** Every check the kit runs against a record, in the order it runs them. */
export const kitChecks = [...fileChecks, ...positionChecks, ...workspaceChecks] as const
