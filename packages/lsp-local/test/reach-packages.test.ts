// What reaches a target through a workspace package (RFC 0035): a file of no project (an inferred project holds it and
// what its imports resolve to) reaches a package only when an import of it can resolve into it. A package whose entries
// point only at outputs not built, or at a source file under a condition the compiler applies only when a config's
// `customConditions` names it, gives such a file nothing: the native server with every file open finds no reference
// there, so need-first never waits for it. Once the output is built, the same file reaches it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'

import { resolvable, workspacePackages } from '../src/languages/typescript/packages.js'
import { discoverTsProjects } from '../src/languages/typescript/projects.js'
import { reachingTarget } from '../src/languages/typescript/reach.js'
import { positionOf } from './helpers.js'
import { OracleServer } from './oracle/index.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-reach-packages-')))
const at = (path: string) => nodePath.join(root, path)
const write = (path: string, text: string) => {
  mkdirSync(nodePath.dirname(at(path)), { recursive: true })
  writeFileSync(at(path), text)
}
const json = (value: unknown) => JSON.stringify(value, null, 2)

write('package.json', json({ name: 'fixture-root', private: true }))
// Not built: its types are in build/, its source only under a custom condition.
write(
  'unbuilt/package.json',
  json({
    name: '@fx/unbuilt',
    types: './build/index.d.ts',
    main: './build/index.js',
    exports: {
      '.': { '@fx/source': './src/index.ts', import: { types: './build/index.d.ts', default: './build/index.js' } },
      './package.json': './package.json',
    },
  }),
)
write('unbuilt/tsconfig.json', json({ compilerOptions: { strict: true }, include: ['src'] }))
write('unbuilt/src/index.ts', 'export function toMetres(feet: number): number {\n  return feet * 0.3048\n}\n')
// Its types are its source.
write('plain/package.json', json({ name: '@fx/plain', types: './src/index.ts' }))
write('plain/tsconfig.json', json({ compilerOptions: { strict: true }, include: ['src'] }))
write('plain/src/index.ts', 'export function toFeet(metres: number): number {\n  return metres / 0.3048\n}\n')
// Files of no project, each importing one package by name.
write('tools/unbuilt.ts', "import { toMetres } from '@fx/unbuilt'\n\nexport const metres = toMetres(1)\n")
write('tools/plain.ts', "import { toFeet } from '@fx/plain'\n\nexport const feet = toFeet(1)\n")
for (const name of ['unbuilt', 'plain']) {
  mkdirSync(at('node_modules/@fx'), { recursive: true })
  symlinkSync(at(name), at(`node_modules/@fx/${name}`), 'dir')
}

afterAll(() => rmSync(root, { recursive: true, force: true }))

const sources = ['unbuilt/src/index.ts', 'plain/src/index.ts', 'tools/unbuilt.ts', 'tools/plain.ts'].map(at)

async function looseReaching(target: string): Promise<string[] | undefined> {
  const graph = await discoverTsProjects(root, [at('unbuilt/tsconfig.json'), at('plain/tsconfig.json')], { timeoutMs: 60_000 })
  const reaching = await reachingTarget(graph, sources, root, at(target), () => true)
  return reaching?.looseFiles.map((file) => nodePath.relative(root, file))
}

test('a package whose entries are not built, or only under a custom condition, resolves for no file of no project', async () => {
  const packages = await workspacePackages(root)
  expect(resolvable(packages.get(at('unbuilt'))!)).toBe(false)
  expect(resolvable(packages.get(at('plain'))!)).toBe(true)
  expect(await looseReaching('unbuilt/src/index.ts')).toEqual([])
  expect(await looseReaching('plain/src/index.ts')).toEqual(['tools/plain.ts'])
})

test(
  'the native server with every file open finds no reference through the unbuilt package; once built, the file reaches it',
  { timeout: 180_000 },
  async () => {
    const oracle = await OracleServer.start(root, 'typescript')
    try {
      const found = async (path: string, name: string) =>
        oracle.references({ path: at(path), name, kind: 'function', ...positionOf(root, path, name) })
      // The premise: the loose file's import resolves into the plain package, and not into the unbuilt one.
      expect((await found('plain/src/index.ts', 'toFeet')).some((key) => key.includes('tools/plain.ts'))).toBe(true)
      expect((await found('unbuilt/src/index.ts', 'toMetres')).some((key) => key.includes('tools/unbuilt.ts'))).toBe(false)
    } finally {
      await oracle.dispose()
    }
    write('unbuilt/build/index.d.ts', 'export declare function toMetres(feet: number): number\n')
    expect(resolvable((await workspacePackages(root)).get(at('unbuilt'))!)).toBe(true)
    expect(await looseReaching('unbuilt/src/index.ts')).toEqual(['tools/unbuilt.ts'])
  },
)
