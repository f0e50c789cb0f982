import * as nodePath from 'node:path'
import { readFileSync } from 'node:fs'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { canDerive, createLsp, lspOperations, type LspDocumentSymbol, type LspOperation, type LspService } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf, textAt } from './helpers.js'

/** Where things are in a language's fixture, by text. */
export interface LanguageFixture {
  readonly fixture: string
  /** File with the definitions. */
  readonly defs: string
  /** File that uses them. */
  readonly main: string
  /** File with one type error. */
  readonly broken: string
  /** The function: its name and the text of its declaration (the name starts the needle). */
  readonly fn: string
  readonly fnDecl: string
  /** Text of the call in `main` (the name starts the needle), and the offset of a position inside its argument list. */
  readonly fnCall: string
  readonly argOffset: number
  /** The caller of `fn` in `main`. */
  readonly caller: string
  /** The base type (its name starts `baseDecl`) and a subtype (its name starts `subDecl`). */
  readonly base: string
  readonly baseDecl: string
  readonly sub: string
  readonly subDecl: string
  /** In `main`: a variable whose type is `sub` (the name starts the needle), and a member access `var.member`. */
  readonly variable: string
  readonly memberAccess: string
  readonly member: string
  /** A file and text where a code action is offered, and a word in the title. */
  readonly actionFile: string
  readonly actionAt: string
  readonly actionTitle: RegExp
  /** Kinds to ask for (e.g. source.organizeImports), when the action is not a quick fix. */
  readonly actionOnly?: ReadonlyArray<string>
  /** A file formatting changes, and text that formatting rewrites. */
  readonly formatFile: string
  readonly unformatted: string
}

function flatten(symbols: ReadonlyArray<LspDocumentSymbol>): string[] {
  return symbols.flatMap((s) => [s.name, ...flatten(s.children)])
}

/**
 * Holds one profile to its minimum set: every operation in `operations` has a check against the real
 * server, and an operation without a check fails the suite.
 */
export function describeProfile(
  name: string,
  options: HostOptions,
  operations: ReadonlyArray<LspOperation>,
  fx: LanguageFixture,
  skipReason?: string,
): void {
  if (skipReason !== undefined) {
    describe(name, () => {
      test.skip(`${name}: ${skipReason}`, () => {})
    })
    console.log(`SKIPPED the ${name} integration tests: ${skipReason}`)
    return
  }
  describe(name, () => {
    const copy = copyFixture(fx.fixture)
    const root = copy.root
    const leaks = new LeakCheck()
    let host: LocalHost
    let lsp: LspService
    const at = (file: string, needle: string, offset = 0) => positionOf(root, file, needle, { offset })
    const abs = (file: string) => nodePath.join(root, file)

    beforeAll(async () => {
      host = await createLocalHost(options)
      lsp = createLsp()
      await host.attach(lsp, [{ root, trust: 'trusted' }])
    })
    afterAll(async () => {
      await leaks.record()
      await lsp.dispose()
      await host.dispose()
      const survivors = await leaks.survivors()
      copy.remove()
      expect(survivors, 'server processes still alive after dispose').toEqual([])
    })

    const checks: Partial<Record<LspOperation, () => Promise<void>>> = {
      definition: async () => {
        const r = await lsp.query({ operation: 'definition', root, path: fx.main, position: at(fx.main, fx.fnCall) })
        expect(r.locations.some((l) => l.path === abs(fx.defs) && textAt(l.path, l.targetSelectionRange ?? l.range).includes(fx.fn))).toBe(
          true,
        )
      },
      declaration: async () => {
        const r = await lsp.query({ operation: 'declaration', root, path: fx.main, position: at(fx.main, fx.fnCall) })
        expect(r.locations.some((l) => l.path === abs(fx.defs) && textAt(l.path, l.targetSelectionRange ?? l.range).includes(fx.fn))).toBe(
          true,
        )
      },
      typeDefinition: async () => {
        const r = await lsp.query({ operation: 'typeDefinition', root, path: fx.main, position: at(fx.main, fx.variable) })
        expect(r.locations.some((l) => l.path === abs(fx.defs) && textAt(l.path, l.targetSelectionRange ?? l.range).includes(fx.sub))).toBe(
          true,
        )
      },
      implementation: async () => {
        const r = await lsp.query({ operation: 'implementation', root, path: fx.defs, position: at(fx.defs, fx.baseDecl) })
        expect(r.locations.some((l) => textAt(l.path, l.targetSelectionRange ?? l.range).includes(fx.sub))).toBe(true)
      },
      references: async () => {
        const r = await lsp.query({ operation: 'references', root, path: fx.defs, position: at(fx.defs, fx.fnDecl) })
        expect(r.locations.some((l) => l.path === abs(fx.main))).toBe(true)
        expect(r.locations.some((l) => l.path === abs(fx.defs))).toBe(true)
        expect(r.locations.every((l) => textAt(l.path, l.range) === fx.fn)).toBe(true)
      },
      hover: async () => {
        const r = await lsp.query({ operation: 'hover', root, path: fx.main, position: at(fx.main, fx.fnCall) })
        expect(r.hover?.contents).toContain(fx.fn)
      },
      signatureHelp: async () => {
        const r = await lsp.query({ operation: 'signatureHelp', root, path: fx.main, position: at(fx.main, fx.fnCall, fx.argOffset) })
        expect(r.signatureHelp?.signatures[0]?.label).toContain('scale')
      },
      documentSymbols: async () => {
        const r = await lsp.query({ operation: 'documentSymbols', root, path: fx.defs })
        expect(flatten(r.symbols)).toEqual(expect.arrayContaining([fx.sub, fx.base, fx.fn]))
      },
      workspaceSymbols: async () => {
        const r = await lsp.query({ operation: 'workspaceSymbols', root, query: fx.sub })
        expect(r.symbols.some((s) => s.name === fx.sub && s.location.path === abs(fx.defs))).toBe(true)
      },
      prepareCallHierarchy: async () => {
        const r = await lsp.query({ operation: 'prepareCallHierarchy', root, path: fx.defs, position: at(fx.defs, fx.fnDecl) })
        expect(r.items.map((i) => i.name)).toContain(fx.fn)
        const again = await lsp.query({ operation: 'prepareCallHierarchy', root, path: fx.defs, position: at(fx.defs, fx.fnDecl) })
        expect(again.items[0]?.id).toBe(r.items[0]?.id)
      },
      incomingCalls: async () => {
        const [item] = (await lsp.query({ operation: 'prepareCallHierarchy', root, path: fx.defs, position: at(fx.defs, fx.fnDecl) })).items
        if (item === undefined) throw new Error('no call hierarchy item')
        const r = await lsp.query({ operation: 'incomingCalls', root, item })
        const call = r.calls.find((c) => c.item.name.includes(fx.caller))
        expect(call?.item.path).toBe(abs(fx.main))
        expect(call?.fromRanges.some((range) => textAt(abs(fx.main), range) === fx.fn)).toBe(true)
      },
      outgoingCalls: async () => {
        const [item] = (await lsp.query({ operation: 'prepareCallHierarchy', root, path: fx.main, position: at(fx.main, fx.caller) })).items
        if (item === undefined) throw new Error('no call hierarchy item')
        const r = await lsp.query({ operation: 'outgoingCalls', root, item })
        expect(r.calls.map((c) => c.item.name)).toContain(fx.fn)
      },
      prepareTypeHierarchy: async () => {
        const r = await lsp.query({ operation: 'prepareTypeHierarchy', root, path: fx.defs, position: at(fx.defs, fx.subDecl) })
        expect(r.items.map((i) => i.name)).toContain(fx.sub)
      },
      supertypes: async () => {
        const [item] = (await lsp.query({ operation: 'prepareTypeHierarchy', root, path: fx.defs, position: at(fx.defs, fx.subDecl) }))
          .items
        if (item === undefined) throw new Error('no type hierarchy item')
        const r = await lsp.query({ operation: 'supertypes', root, item })
        expect(r.items.map((i) => i.name)).toContain(fx.base)
      },
      subtypes: async () => {
        const [item] = (await lsp.query({ operation: 'prepareTypeHierarchy', root, path: fx.defs, position: at(fx.defs, fx.baseDecl) }))
          .items
        if (item === undefined) throw new Error('no type hierarchy item')
        const r = await lsp.query({ operation: 'subtypes', root, item })
        expect(r.items.map((i) => i.name)).toContain(fx.sub)
      },
      diagnostics: async () => {
        const r = await lsp.query({ operation: 'diagnostics', root, path: fx.broken })
        expect(r.files[0]?.freshness).toBe('current')
        expect(r.files[0]?.diagnostics.some((d) => d.severity === 'error')).toBe(true)
        const clean = await lsp.query({ operation: 'diagnostics', root, path: fx.defs })
        expect(clean.files[0]?.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
        const all = await lsp.query({ operation: 'diagnostics', root })
        expect(all.coverage.analysed).toContain(abs(fx.broken))
        expect(all.files.some((f) => f.path === abs(fx.broken) && f.diagnostics.some((d) => d.severity === 'error'))).toBe(true)
      },
      inlayHints: async () => {
        const r = await lsp.query({ operation: 'inlayHints', root, path: fx.main })
        const labels = r.hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')))
        expect(labels.some((l) => l.includes('scale'))).toBe(true)
      },
      completion: async () => {
        const r = await lsp.query({
          operation: 'completion',
          root,
          path: fx.main,
          position: at(fx.main, fx.memberAccess, fx.memberAccess.indexOf('.') + 1),
          triggerCharacter: '.',
        })
        // Servers decorate labels (clangd: " area() const"): compare the bare name.
        expect(r.items.map((i) => i.label.trim().replace(/\(.*$/, ''))).toContain(fx.member)
      },
      codeActions: async () => {
        // Quick fixes come from the file's diagnostics: make sure they are current first.
        await lsp.query({ operation: 'diagnostics', root, path: fx.actionFile })
        const position = at(fx.actionFile, fx.actionAt)
        const r = await lsp.query({
          operation: 'codeActions',
          root,
          path: fx.actionFile,
          range: { start: position, end: { ...position, character: position.character + fx.actionAt.length } },
          ...(fx.actionOnly ? { only: fx.actionOnly } : {}),
        })
        expect(r.actions.some((a) => fx.actionTitle.test(a.title))).toBe(true)
      },
      resolveCodeAction: async () => {
        await lsp.query({ operation: 'diagnostics', root, path: fx.actionFile })
        const position = at(fx.actionFile, fx.actionAt)
        const listed = await lsp.query({
          operation: 'codeActions',
          root,
          path: fx.actionFile,
          range: { start: position, end: { ...position, character: position.character + fx.actionAt.length } },
          ...(fx.actionOnly ? { only: fx.actionOnly } : {}),
        })
        const action = listed.actions.find((a) => fx.actionTitle.test(a.title))
        if (action === undefined)
          throw new Error(`no action matching ${fx.actionTitle} among ${listed.actions.map((a) => a.title).join(', ')}`)
        const r = await lsp.query({ operation: 'resolveCodeAction', root, path: fx.actionFile, actionId: action.id })
        const edits = [r.edit, ...(r.command?.appliedEdits ?? [])].flatMap((e) => e.operations)
        expect(edits.length).toBeGreaterThan(0)
        const applied = await lsp.applyEdit(r.edit.operations.length > 0 ? r.edit : (r.command?.appliedEdits[0] ?? r.edit), { root })
        expect(applied.files.map((f) => f.path)).toContain(abs(fx.actionFile))
        expect(readFileSync(abs(fx.actionFile), 'utf8')).not.toBe(
          readFileSync(nodePath.join(__dirname, 'fixtures', fx.fixture, fx.actionFile), 'utf8'),
        )
      },
      prepareRename: async () => {
        const r = await lsp.query({ operation: 'prepareRename', root, path: fx.defs, position: at(fx.defs, fx.fnDecl) })
        expect(r.rename).toMatchObject({ canRename: true, placeholder: fx.fn })
      },
      rename: async () => {
        const newName = `${fx.fn}Renamed`
        const r = await lsp.query({ operation: 'rename', root, path: fx.defs, position: at(fx.defs, fx.fnDecl), newName })
        expect(r.edit.operations.map((o) => (o.type === 'edit' ? o.path : ''))).toEqual(
          expect.arrayContaining([abs(fx.defs), abs(fx.main)]),
        )
        await lsp.applyEdit(r.edit, { root })
        expect(readFileSync(abs(fx.main), 'utf8')).toContain(newName)
        expect(readFileSync(abs(fx.defs), 'utf8')).toContain(newName)
        // The server was told: a query at the new name finds its definition.
        const after = await lsp.query({ operation: 'definition', root, path: fx.main, position: at(fx.main, `${newName}(`) })
        expect(after.locations.some((l) => l.path === abs(fx.defs))).toBe(true)
      },
      format: async () => {
        const r = await lsp.query({ operation: 'format', root, path: fx.formatFile })
        expect(r.edit.operations.length).toBe(1)
        await lsp.applyEdit(r.edit, { root })
        expect(readFileSync(abs(fx.formatFile), 'utf8')).not.toContain(fx.unformatted)
      },
    }

    // Operations the server lacks but the provider derives from the minimum set (RFC 0010) are declared and checked too.
    const declared = [...operations, ...lspOperations.filter((o) => canDerive(o, operations))]
    test('every operation of the minimum set has a check', () => {
      expect(declared.filter((o) => checks[o] === undefined)).toEqual([])
    })
    test('the provider declares exactly the minimum set and what it derives from it', () => {
      const provider = host.providers.find((p) => p.id === `local:${name}`)
      expect([...(provider?.operations ?? [])].sort()).toEqual([...declared].sort())
    })

    // Read-only operations first, then the ones that change files.
    const mutating: ReadonlyArray<LspOperation> = ['resolveCodeAction', 'rename', 'format']
    for (const operation of [...declared.filter((o) => !mutating.includes(o)), ...mutating.filter((o) => declared.includes(o))]) {
      const check = checks[operation]
      if (check !== undefined) test(operation, check)
    }

    test('the server negotiated every operation of the minimum set', async () => {
      await leaks.record()
      const status = host.status().filter((s) => s.providerId === `local:${name}` && s.state === 'ready')
      expect(status.length).toBeGreaterThan(0)
      // A companion's operations (ruff beside pyright) are answered beside the server, not negotiated with it.
      for (const s of status)
        expect([...(s.operations ?? []), ...(s.companions ?? []).flatMap((c) => c.operations)]).toEqual(
          expect.arrayContaining([...operations]),
        )
    })
  })
}
