import { execFileSync } from 'node:child_process'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinProfiles, type LocalHost } from '@codeseam/lsp-local'

import type { MutationReceipt } from '../src/index.js'
import { openWorld, removeTestLocks, sharedHost } from './harness.js'

/**
 * Edits never break what they did not touch (RFC 0018), against the real servers: a rename is compared with
 * the symbol's complete references before it is written, and the diagnostics after a change cover every file
 * that used what changed, not only the files the edit touched.
 */

let host: LocalHost
beforeAll(async () => {
  host = await sharedHost()
})
afterAll(async () => {
  await host.dispose()
  removeTestLocks()
})

type Refusal = {
  code: string
  data: { leftBehind?: Array<{ path: string; line: number; snippet: string; inside?: string }>; receipt?: MutationReceipt }
}

const rustMissing = (await builtinProfiles()).find((p) => p.id === 'rust-analyzer')?.unavailable

/** `cargo check`'s errors in a copy (its own target folder inside the copy), as `path:line code`. */
function cargoErrors(root: string): string[] {
  let out = ''
  try {
    execFileSync('cargo', ['check', '--quiet', '--message-format=short'], {
      cwd: root,
      env: { ...process.env, CARGO_TARGET_DIR: nodePath.join(root, 'target') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  } catch (error) {
    out = String((error as { stderr?: unknown }).stderr ?? '')
  }
  return [...new Set([...out.matchAll(/^(\S+?):(\d+):\d+: (error(?:\[E\d+\])?)/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]}`))]
}

describe('rename integrity (pyright)', () => {
  it('refuses a rename that leaves uses through the package namespace unchanged, naming each of them', async () => {
    const world = await openWorld(host, 'py-reexport')
    try {
      const before = world.read('tests/test_pkg.py')
      const outcome = await world.call('code_rename', { target: { path: 'pkg/utils.py', symbol: 'normalize' }, newName: 'canonical' })
      // The fixture's pyright `include` leaves tests/ and examples/ out of the server's rename, while the
      // complete references (every project loaded) find the uses there: the shape found on flask.
      if (outcome.ok) throw new Error(`expected a refusal, got: ${outcome.text}`)
      const error = outcome.error as unknown as Refusal
      expect(error.code).toBe('INCOMPLETE_EDIT')
      const named = (error.data.leftBehind ?? []).map((l) => l.path)
      expect(named).toContain('tests/test_pkg.py')
      expect(named).toContain('examples/demo.py')
      for (const place of error.data.leftBehind ?? []) expect(place.snippet).toContain('normalize')
      expect(outcome.text).toContain('tests/test_pkg.py:')
      // Nothing was written.
      expect(world.read('tests/test_pkg.py')).toBe(before)
      expect(world.read('pkg/utils.py')).toContain('def normalize(')
    } finally {
      await world.dispose()
    }
  })

  it('writes the partial rename when the caller accepts it, and its check covers the files left behind', async () => {
    const world = await openWorld(host, 'py-reexport')
    try {
      const dry = await world.call('code_rename', {
        target: { path: 'pkg/utils.py', symbol: 'normalize' },
        newName: 'canonical',
        dryRun: true,
      })
      if (!dry.ok) throw new Error(dry.error.message)
      const preview = (dry.structured as { receipt: MutationReceipt }).receipt
      expect(preview.status).toBe('previewed')
      const leftBehind = preview.integrity?.leftBehind ?? []
      expect(leftBehind.map((l) => l.path).sort()).toEqual(['examples/demo.py', 'tests/test_pkg.py'])
      const outcome = await world.call('code_rename', {
        target: { path: 'pkg/utils.py', symbol: 'normalize' },
        newName: 'canonical',
        allowPartial: true,
      })
      if (!outcome.ok) throw new Error(outcome.error.message)
      const receipt = (outcome.structured as { receipt: MutationReceipt }).receipt
      expect(receipt.status).toBe('applied')
      expect(receipt.integrity?.partialAccepted).toBe(true)
      // The untouched files that used the symbol were checked, and their breakage is reported.
      const checkedPaths = receipt.diagnostics?.files.map((f) => f.path) ?? []
      for (const place of leftBehind) expect(checkedPaths).toContain(place.path)
      expect(world.read('tests/test_pkg.py')).toContain('pkg.normalize(')
      const broken = new Set(receipt.diagnostics?.introduced.filter((d) => d.severity === 'error').map((d) => d.path))
      expect([...broken].some((path) => leftBehind.some((l) => l.path === path))).toBe(true)
      expect(receipt.diagnostics?.checked?.impact).toBeGreaterThan(0)
    } finally {
      await world.dispose()
    }
  })
})

describe.skipIf(rustMissing !== undefined && process.env['CI'] !== 'true')('rename integrity (rust-analyzer)', () => {
  if (rustMissing !== undefined) console.log(`SKIPPED the rust-analyzer rename integrity tests: ${rustMissing}`)

  it('refuses a rename that would leave a use inside a macro_rules! body, naming it; cargo check agrees', async () => {
    expect(rustMissing, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
    const world = await openWorld(host, 'rust-macro')
    try {
      const source = world.read('src/reader.rs')
      const macroLine = source.split('\n').findIndex((l) => l.includes('fail_short($n')) + 1
      const outcome = await world.call('code_rename', { target: { path: 'src/lib.rs', symbol: 'fail_short' }, newName: 'fail_truncated' })
      if (outcome.ok) throw new Error(`expected a refusal, got: ${outcome.text}`)
      const error = outcome.error as unknown as Refusal
      expect(error.code).toBe('INCOMPLETE_EDIT')
      // The one use rust-analyzer neither renames nor references: the one inside the macro's body.
      expect(error.data.leftBehind?.map((l) => `${l.path}:${l.line} ${l.inside ?? ''}`)).toEqual([
        `src/reader.rs:${macroLine} a macro_rules! body`,
      ])
      expect(outcome.text).toContain(`src/reader.rs:${macroLine}: fail_short($n, $reader.bytes.len()); (inside a macro_rules! body)`)
      expect(outcome.text).toContain('resolves no names inside a macro_rules! body')
      expect(world.read('src/reader.rs')).toBe(source)

      // Accepted anyway, the rename breaks exactly what was named, as the compiler says.
      const partial = await world.call('code_rename', {
        target: { path: 'src/lib.rs', symbol: 'fail_short' },
        newName: 'fail_truncated',
        allowPartial: true,
      })
      if (!partial.ok) throw new Error(partial.error.message)
      const receipt = (partial.structured as { receipt: MutationReceipt }).receipt
      expect(receipt.integrity?.partialAccepted).toBe(true)
      expect(world.read('src/reader.rs')).toContain('            fail_truncated(n, self.bytes.len());')
      expect(cargoErrors(world.root)).toEqual([`src/reader.rs:${macroLine} error[E0425]`])
    } finally {
      await world.dispose()
    }
  })
})

describe('new names', () => {
  it('a keyword or a non-identifier is refused with INVALID_ARGUMENT and nothing is written', async () => {
    const world = await openWorld(host, 'py-reexport')
    try {
      const before = world.read('pkg/utils.py')
      for (const newName of ['class', 'two words', 'a-b']) {
        const outcome = await world.call('code_rename', { target: { path: 'pkg/utils.py', symbol: 'normalize' }, newName })
        if (outcome.ok) throw new Error(`renamed to ${newName}: ${outcome.text}`)
        expect(outcome.error.code, newName).toBe('INVALID_ARGUMENT')
      }
      expect(world.read('pkg/utils.py')).toBe(before)
    } finally {
      await world.dispose()
    }
  })

  it('TypeScript: a reserved word is refused for a function, and the message says why', async () => {
    const world = await openWorld(host, 'ts-impact')
    try {
      const outcome = await world.call('code_rename', { target: { path: 'src/geometry.ts', symbol: 'area' }, newName: 'delete' })
      if (outcome.ok) throw new Error(outcome.text)
      expect(outcome.error.code).toBe('INVALID_ARGUMENT')
      expect(outcome.error.message).toMatch(/keyword/)
    } finally {
      await world.dispose()
    }
  })
})

describe('impact set (native TypeScript server)', () => {
  it('a signature change reports the callers it breaks in files it did not touch', async () => {
    const world = await openWorld(host, 'ts-impact')
    try {
      const outcome = await world.call('code_replace', {
        target: { path: 'src/geometry.ts', symbol: 'area' },
        text: 'export function area(width: number, height: number, depth: number): number {\n  return width * height * depth\n}',
      })
      if (!outcome.ok) throw new Error(outcome.error.message)
      const receipt = (outcome.structured as { receipt: MutationReceipt }).receipt
      expect(receipt.status).toBe('applied')
      expect(receipt.files.map((f) => f.path)).toEqual(['src/geometry.ts'])
      const introduced = receipt.diagnostics?.introduced.filter((d) => d.severity === 'error') ?? []
      expect(introduced.map((d) => d.path)).toContain('src/report.ts')
      expect(receipt.diagnostics?.checked?.impact).toBeGreaterThan(0)
      expect(outcome.text).toContain('src/report.ts (')
    } finally {
      await world.dispose()
    }
  })

  it('a line-range replacement checks the users of every symbol declared in those lines', async () => {
    const world = await openWorld(host, 'ts-impact')
    try {
      const source = world.read('src/geometry.ts')
      const line = source.split('\n').findIndex((l) => l.includes('export function area')) + 1
      const endLine = source.split('\n').findIndex((l, i) => i >= line && l.startsWith('}')) + 1
      const outcome = await world.call('code_replace', {
        target: { path: 'src/geometry.ts', line },
        endLine,
        text: 'export function area(width: number, height: number, depth: number): number {\n  return width * height * depth\n}',
        dryRun: true,
      })
      if (!outcome.ok) throw new Error(outcome.error.message)
      const receipt = (outcome.structured as { receipt: MutationReceipt }).receipt
      expect(receipt.status).toBe('previewed')
      expect(receipt.predicted?.checked?.impact).toBeGreaterThan(0)
      const predicted = receipt.predicted?.introduced.filter((d) => d.severity === 'error') ?? []
      expect(predicted.map((d) => d.path)).toContain('src/report.ts')
      expect(world.read('src/geometry.ts')).toBe(source)
    } finally {
      await world.dispose()
    }
  })

  it('a rename through a re-export keeps the alias and lists its uses apart', async () => {
    const world = await openWorld(host, 'ts-impact')
    try {
      const outcome = await world.call('code_rename', { target: { path: 'src/geometry.ts', symbol: 'area' }, newName: 'rectangleArea' })
      if (!outcome.ok) throw new Error(outcome.error.message)
      const receipt = (outcome.structured as { receipt: MutationReceipt }).receipt
      expect(receipt.status).toBe('applied')
      expect(receipt.integrity?.leftBehind).toEqual([])
      expect(world.read('src/report.ts')).toContain('rectangleArea(2, 3)')
      // `surface` is an alias: its uses keep the alias name.
      expect(world.read('src/use-index.ts')).toContain('surface(1, 1)')
      expect(receipt.diagnostics?.introduced.filter((d) => d.severity === 'error')).toEqual([])
      expect(receipt.integrity?.names.some((n) => n.to.includes('rectangleArea'))).toBe(true)
    } finally {
      await world.dispose()
    }
  })
})
