import * as nodePath from 'node:path'

import { afterAll, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'
import { OracleServer, type OracleLanguage, type SymbolTarget } from './oracle/oracle.js'
import { locationKey, renameRefusedKey, textEditKey, unique } from './oracle/keys.js'
import { errorKey, relativePath } from './oracle/seam.js'

/*
 * Several roots as one workspace (RFC 0025): two roots that import each other, registered on one `ctx.lsp`.
 * codeseam's first answers — references, definitions, implementations, rename — over both roots equal the bare
 * server's given both folders with every file open; a service holding one of the roots sees nothing of the other.
 */

const operations = ['references', 'definition', 'implementation', 'rename'] as const
type Operation = (typeof operations)[number]

interface Case {
  readonly language: OracleLanguage
  readonly fixture: string
  /** Symbols to ask about: file (under the fixture), a text that holds the name (found by text), the name. */
  readonly targets: ReadonlyArray<{ file: string; text: string; name: string }>
}

const cases: ReadonlyArray<Case> = [
  {
    language: 'typescript',
    fixture: 'multi-root-ts',
    targets: [
      { file: 'lib/src/shapes.ts', text: 'function totalArea', name: 'totalArea' },
      { file: 'lib/src/shapes.ts', text: 'interface Shape', name: 'Shape' },
      { file: 'lib/src/shapes.ts', text: '  area(): number\n}', name: 'area' },
      { file: 'lib/src/shapes.ts', text: 'class Square', name: 'Square' },
      { file: 'app/src/main.ts', text: 'return totalArea', name: 'totalArea' },
      { file: 'app/src/circle.ts', text: 'implements Shape', name: 'Shape' },
      { file: 'app/src/main.ts', text: 'new Circle', name: 'Circle' },
    ],
  },
  {
    language: 'python',
    fixture: 'multi-root-py',
    targets: [
      { file: 'lib/shapes/__init__.py', text: 'def total_area', name: 'total_area' },
      { file: 'lib/shapes/__init__.py', text: 'class Shape', name: 'Shape' },
      { file: 'lib/shapes/__init__.py', text: 'class Square', name: 'Square' },
      { file: 'app/tool/main.py', text: 'return total_area', name: 'total_area' },
      { file: 'app/tool/main.py', text: 'Circle(1)', name: 'Circle' },
    ],
  },
]

const newName = 'renamedAcrossRoots'

/** What the bare server answers itself (pyright has no implementation: codeseam derives one, which compares with nothing). */
const operationsOf = (language: OracleLanguage): ReadonlyArray<Operation> =>
  language === 'python' ? operations.filter((operation) => operation !== 'implementation') : operations

const keyOf = (operation: Operation, target: SymbolTarget) => `${operation} ${target.path}:${target.line}:${target.character}`

/** codeseam's answer for one target, keyed as the oracle keys it (paths relative to the folder holding both roots). */
async function seamKeys(lsp: LspService, parent: string, root: string, operation: Operation, target: SymbolTarget): Promise<string[]> {
  const at = { root, path: nodePath.join(parent, target.path), position: { line: target.line, character: target.character } }
  const rel = (path: string) => relativePath(parent, path)
  try {
    if (operation === 'rename') {
      const { rename } = await lsp.query({ operation: 'prepareRename', ...at })
      if (!rename.canRename) return [renameRefusedKey]
      const { edit } = await lsp.query({ operation: 'rename', ...at, newName })
      return unique(
        edit.operations.flatMap((step) =>
          step.type === 'edit' ? step.edits.map((text) => textEditKey(rel(step.path), text.range, text.newText)) : [`!${step.type}`],
        ),
      )
    }
    const { locations, meta } = await lsp.query({ operation, ...at })
    const dropped = meta.droppedOutsideWorkspace ?? 0
    return unique([...locations.map((l) => locationKey(rel(l.path), l.range)), ...(dropped > 0 ? [`!dropped ${dropped}`] : [])])
  } catch (error) {
    return [errorKey(error)]
  }
}

/** The oracle's answer, renamed to the same new name. */
async function oracleKeys(oracle: OracleServer, operation: Operation, target: SymbolTarget): Promise<string[]> {
  try {
    if (operation === 'rename') {
      const keys = await oracle.rename(target)
      // The oracle renames to its fixed name; both sides compare with one.
      return keys.map((key) => key.replace(/renamedByOracle/g, newName))
    }
    return await oracle[operation](target)
  } catch (error) {
    return [errorKey(error)]
  }
}

for (const { language, fixture, targets } of cases) {
  describe(`${language}: two roots that import each other`, () => {
    const leaks = new LeakCheck()
    const copy = copyFixture(fixture)
    const parent = copy.root
    const roots = { lib: nodePath.join(parent, 'lib'), app: nodePath.join(parent, 'app') }
    let host: LocalHost | undefined
    let oracle: OracleServer | undefined
    const services: LspService[] = []

    afterAll(async () => {
      await leaks.record()
      for (const lsp of services) await lsp.dispose()
      await host?.dispose()
      await oracle?.dispose()
      copy.remove()
      expect(await leaks.survivors()).toEqual([])
    })

    const targetsOf = (): SymbolTarget[] =>
      targets.map(({ file, text, name }) => {
        const position = positionOf(parent, file, text, { offset: text.indexOf(name) })
        return { path: file, name, kind: 'symbol', line: position.line, character: position.character }
      })

    test('every first answer over both roots equals the bare server given both folders with every file open', async () => {
      host = await createLocalHost()
      const lsp = createLsp()
      services.push(lsp)
      await host.attach(lsp, [
        { root: roots.lib, id: 'lib' },
        { root: roots.app, id: 'app' },
      ])
      const mismatches: string[] = []
      const answered: string[] = []
      // codeseam first: its first answers come from a cold start, before the oracle loads anything.
      const seam = new Map<string, string[]>()
      for (const target of targetsOf()) {
        const root = target.path.startsWith('lib/') ? roots.lib : roots.app
        for (const operation of operationsOf(language))
          seam.set(keyOf(operation, target), await seamKeys(lsp, parent, root, operation, target))
      }
      oracle = await OracleServer.start(parent, language, { folders: [roots.lib, roots.app] })
      for (const target of targetsOf()) {
        for (const operation of operationsOf(language)) {
          const key = keyOf(operation, target)
          const expected = await oracleKeys(oracle, operation, target)
          const got = seam.get(key) ?? []
          answered.push(...got)
          if (JSON.stringify(got) !== JSON.stringify(expected))
            mismatches.push(`${key}\n  codeseam: ${JSON.stringify(got)}\n  bare:     ${JSON.stringify(expected)}`)
        }
      }
      expect(mismatches).toEqual([])
      // The comparison compared something: answers that cross from one root into the other.
      const crossing = targetsOf().flatMap((target) => {
        const other = target.path.startsWith('lib/') ? 'app/' : 'lib/'
        return operationsOf(language).filter((operation) => seam.get(keyOf(operation, target))?.some((k) => k.startsWith(other)))
      })
      expect(crossing).toContain('definition')
      expect(crossing).toContain('references')
      expect(answered.length).toBeGreaterThan(0)
      // One server serves both roots.
      const serving = host.status().filter((s) => s.providerId === `local:${language === 'typescript' ? 'typescript' : 'pyright'}`)
      expect(serving.filter((s) => s.state !== 'unavailable').map((s) => [s.root, ...(s.sharedRoots ?? [])])).toEqual([
        [roots.app, roots.lib],
      ])
      await leaks.record()
    })

    test('a service holding one root sees nothing of the other, on its own server', async () => {
      if (host === undefined) throw new Error('the first test opens the host')
      const alone = createLsp()
      services.push(alone)
      for (const provider of host.providers) alone.registerProvider(provider)
      alone.registerWorkspace(await host.openWorkspace(roots.app, { id: 'app' }))
      const [target] = targetsOf().filter((t) => t.path.startsWith('app/'))
      if (target === undefined) throw new Error('no target in app')
      const { locations } = await alone.query({
        operation: 'references',
        root: roots.app,
        path: nodePath.join(parent, target.path),
        position: { line: target.line, character: target.character },
      })
      expect(locations.length).toBeGreaterThan(0)
      expect(locations.filter((l) => !l.path.startsWith(`${roots.app}${nodePath.sep}`))).toEqual([])
      const profile = language === 'typescript' ? 'typescript' : 'pyright'
      const live = host.status().filter((s) => s.providerId === `local:${profile}` && s.state !== 'unavailable')
      // The shared server of both roots, and the one-root service's own.
      expect(live.map((s) => [s.root, ...(s.sharedRoots ?? [])].join(' + ')).sort()).toEqual([roots.app, `${roots.app} + ${roots.lib}`])
      await leaks.record()
    })
  })
}
