// Answers reflect the disk at question time, for Svelte components: with default flags (an untrusted root), an agent
// edits `.svelte` files with plain writes (writeFileSync) and asks at once, with no wait: cross-file definition and
// the outline answer what is on disk, in a component codeseam has open, in one it never opened, and in a new one.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspDocumentSymbol } from '@codeseam/lsp'
import { expect, test } from 'vitest'

import { builtinProfiles, createLocalHost } from '../src/index.js'
import { positionOf } from './helpers.js'
import { cleanupsAfterEach } from './support/cleanups.js'

const fixture = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '../../lsp/fixtures/conformance-svelte')
const missing = (await builtinProfiles()).find((p) => p.id === 'svelte')?.unavailable
const cleanups = cleanupsAfterEach()

async function workspace() {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-svelte-disk-')))
  cpSync(fixture, root, { recursive: true })
  const host = await createLocalHost({})
  const lsp = createLsp()
  cleanups.push(
    () => rmSync(root, { recursive: true, force: true }),
    () => host.dispose(),
    () => lsp.dispose(),
  )
  // Default flags: no trust given, so the root is untrusted.
  await host.attach(lsp, [{ root }])
  const path = (file: string) => nodePath.join(root, file)
  /** The line (0-based) of `needle` in the file as it is on disk now. */
  const lineOf = (file: string, needle: string) => readFileSync(path(file), 'utf8').split(needle)[0]!.split('\n').length - 1
  const definition = async (file: string, needle: string, at?: string) => {
    const result = await lsp.query({
      operation: 'definition',
      root,
      path: file,
      position: positionOf(root, file, needle, { offset: at === undefined ? 0 : needle.indexOf(at) }),
    })
    return result.locations.map((l) => ({ file: nodePath.relative(root, l.path), line: l.range.start.line }))
  }
  const outline = async (file: string) => {
    const names = (symbols: ReadonlyArray<LspDocumentSymbol>): string[] => symbols.flatMap((s) => [s.name, ...names(s.children)])
    return names((await lsp.query({ operation: 'documentSymbols', root, path: file })).symbols)
  }
  return { root, path, lineOf, definition, outline }
}

const counter = 'src/Counter.svelte'
const app = 'src/App.svelte'

test.skipIf(missing !== undefined && process.env['CI'] !== 'true')(
  'Svelte: cross-file definition and outline answer the disk right after plain writes (default flags)',
  { timeout: 120_000 },
  async () => {
    expect(missing, 'under CI=true svelte-language-server must be installed').toBeUndefined()
    const w = await workspace()
    expect(await w.definition(app, 'double(value)')).toEqual([{ file: counter, line: w.lineOf(counter, 'export function double') }])
    expect(await w.outline(counter)).toEqual(expect.arrayContaining(['double', 'increment']))

    // The declaring component, which the server has read, edited on disk: a new function above the old one.
    const before = readFileSync(w.path(counter), 'utf8')
    writeFileSync(
      w.path(counter),
      before.replace(
        '  /** Twice the given count. */',
        '  export function triple(value: number): number {\n    return value * 3\n  }\n\n  /** Twice the given count. */',
      ),
    )
    expect(await w.outline(counter)).toEqual(expect.arrayContaining(['triple', 'double', 'increment']))
    expect(await w.definition(app, 'double(value)')).toEqual([{ file: counter, line: w.lineOf(counter, 'export function double') }])

    // The open component edited on disk to call the new function, at once.
    const appText = readFileSync(w.path(app), 'utf8')
    writeFileSync(
      w.path(app),
      appText
        .replace('import Counter, { double, type Tally }', 'import Counter, { double, triple, type Tally }')
        .replace('count: double(value)', 'count: triple(double(value))'),
    )
    expect(await w.definition(app, 'triple(double')).toEqual([{ file: counter, line: w.lineOf(counter, 'export function triple') }])

    // A new component written to disk, imported by the open one: definition lands in it, its outline answers.
    writeFileSync(
      w.path('src/Badge.svelte'),
      '<script context="module" lang="ts">\n  export function badge(text: string): string {\n    return `[${text}]`\n  }\n</script>\n\n<span>badge</span>\n',
    )
    writeFileSync(
      w.path(app),
      readFileSync(w.path(app), 'utf8')
        .replace('import Counter,', "import { badge } from './Badge.svelte'\n  import Counter,")
        .replace("const naïveCafé = 'café'", "const naïveCafé = badge('café')"),
    )
    expect(await w.definition(app, "badge('café')")).toEqual([{ file: 'src/Badge.svelte', line: 1 }])
    expect(await w.outline('src/Badge.svelte')).toEqual(expect.arrayContaining(['badge']))
  },
)
