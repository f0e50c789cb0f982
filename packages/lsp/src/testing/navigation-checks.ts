import type { FixtureSite } from './fixture-record.js'
import { check, describeLocations, expect, find, landsOn, linePrefix, type CheckContext, type Found } from './check-kit.js'

// Checks that a provider navigates the code: to definitions, declarations, types, implementations and
// references, and up and down the call and type hierarchies.

/**
 * Asks a navigation operation at `from` (found in the fixture) and expects an answer on `to`: on its name when
 * `selection`, anywhere in its range otherwise. Returns what was found, for the report.
 */
async function expectLanding(
  { fixture, root, query }: CheckContext,
  operation: 'definition' | 'declaration' | 'typeDefinition',
  from: FixtureSite | Found,
  to: FixtureSite,
  selection: boolean,
): Promise<string> {
  const use = 'path' in from ? from : await find(fixture, from)
  const target = await find(fixture, to)
  const result = await query({ operation, root, path: use.path, position: use.position })
  expect(landsOn(result.locations, target, selection), `expected ${target.where}, got ${describeLocations(result.locations, root)}`)
  return describeLocations(result.locations, root)
}

export const definitionCheck = check({
  id: 'definition',
  name: 'definition lands on the declaration',
  needs: ['definition'],
  uses: ['definition'],
  run: (context, { definition }) => expectLanding(context, 'definition', definition.use, definition.declaration, true),
})

export const definitionUtf16Check = check({
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
    return expectLanding({ fixture, root, query }, 'definition', use, nonAscii.declaration, true)
  },
})

export const declarationCheck = check({
  id: 'declaration',
  name: 'declaration lands on the declaration',
  needs: ['declaration'],
  uses: ['definition'],
  run: (context, { definition }) => expectLanding(context, 'declaration', definition.use, definition.declaration, false),
})

export const typeDefinitionCheck = check({
  id: 'typeDefinition',
  name: 'typeDefinition lands on the type of a variable',
  needs: ['typeDefinition'],
  uses: ['typeDefinition'],
  run: (context, { typeDefinition }) => expectLanding(context, 'typeDefinition', typeDefinition.use, typeDefinition.type, false),
})

export const implementationCheck = check({
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
})

export const referencesCheck = check({
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
})

export const callHierarchyCheck = check({
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
})

export const typeHierarchyCheck = check({
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
})
