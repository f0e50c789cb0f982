// Speculative checks (RFC 0018) against real servers: an edit that breaks a caller in another file reports the
// caller's new error, and afterwards diagnostics and hover see the disk again (the file byte-identical). Also
// prints what a check costs next to a plain diagnostics query, and what it adds to a read arriving during it.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, describe, expect, test } from 'vitest'

import { createLsp, TextLines } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'

const hosts: LocalHost[] = []
const dirs: string[] = []
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.dispose()))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

interface Case {
  readonly name: string
  readonly files: Readonly<Record<string, string>>
  readonly lib: string
  readonly main: string
  readonly broken: string
  readonly error: RegExp
  readonly hoverNeedle: string
}

const cases: Case[] = [
  {
    name: 'typescript',
    files: {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' },
        include: ['*.ts'],
      }),
      'lib.ts': 'export function greet(name: string): string {\n  return name\n}\n',
      'main.ts': "import { greet } from './lib'\n\nexport const greeting: string = greet('world')\n",
    },
    lib: 'lib.ts',
    main: 'main.ts',
    broken: 'export function greet(name: string, times: number): string {\n  return name.repeat(times)\n}\n',
    error: /argument/i,
    hoverNeedle: "greet('world')",
  },
  {
    name: 'python',
    files: {
      'pyproject.toml': '[project]\nname = "spec"\nversion = "0.0.0"\n',
      'lib.py': 'def greet(name: str) -> str:\n    return name\n',
      'main.py': 'from lib import greet\n\ngreeting = greet("world")\n',
    },
    lib: 'lib.py',
    main: 'main.py',
    broken: 'def greet(name: str, times: int) -> str:\n    return name * times\n',
    error: /times/,
    hoverNeedle: 'greet("world")',
  },
]

describe.each(cases)('speculative check on the $name server', (c) => {
  test('reports the broken caller, then every read sees the disk again', { timeout: 180_000 }, async () => {
    const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-speculate-${c.name}-`)))
    dirs.push(root)
    for (const [file, text] of Object.entries(c.files)) writeFileSync(nodePath.join(root, file), text)
    const lib = nodePath.join(root, c.lib)
    const main = nodePath.join(root, c.main)
    const host = await createLocalHost({ requestTimeoutMs: 120_000 })
    hosts.push(host)
    const lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'trusted' }])
    const position = new TextLines(c.files[c.main]!).positionAt(c.files[c.main]!.indexOf(c.hoverNeedle))
    const hover = () => lsp.query({ operation: 'hover', root, path: main, position })
    const diagnostics = () => lsp.query({ operation: 'diagnostics', root, path: main, waitMs: 60_000 })

    const before = await diagnostics()
    expect(before.files.flatMap((f) => f.diagnostics)).toEqual([])
    const hoverBefore = JSON.stringify((await hover()).hover)

    let started = performance.now()
    const plain = await diagnostics()
    const plainMs = performance.now() - started
    expect(plain.files[0]?.freshness).toBe('current')

    started = performance.now()
    const result = await lsp.speculate({ root, documents: [{ path: lib, text: c.broken }], paths: [lib, main], waitMs: 60_000 })
    const speculateMs = performance.now() - started
    const caller = result.files.find((f) => f.path === main)
    expect(caller?.freshness, JSON.stringify(result)).toBe('current')
    expect(
      caller?.diagnostics.some((d) => c.error.test(d.message)),
      JSON.stringify(result),
    ).toBe(true)

    // A read issued while a check runs waits at the gate, and answers from the disk.
    started = performance.now()
    const during = lsp.speculate({ root, documents: [{ path: lib, text: c.broken }], paths: [lib, main], waitMs: 60_000 })
    const readDuring = hover()
    const [, hoverDuring] = await Promise.all([during, readDuring])
    const readDuringMs = performance.now() - started
    expect(JSON.stringify(hoverDuring.hover)).toBe(hoverBefore)
    started = performance.now()
    await hover()
    const readMs = performance.now() - started

    const after = await diagnostics()
    expect(after.files[0]?.freshness).toBe('current')
    expect(after.files.flatMap((f) => f.diagnostics)).toEqual([])
    expect(JSON.stringify((await hover()).hover)).toBe(hoverBefore)
    expect(readFileSync(lib, 'utf8')).toBe(c.files[c.lib])
    expect(readFileSync(main, 'utf8')).toBe(c.files[c.main])
    console.log(
      `[speculate cost] ${c.name}: plain diagnostics ${plainMs.toFixed(0)} ms; speculative check (2 files) ${speculateMs.toFixed(0)} ms; hover alone ${readMs.toFixed(0)} ms; hover issued during a check ${readDuringMs.toFixed(0)} ms`,
    )
  })
})
