import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contentHash, TextLines } from '@codeseam/lsp'
import type { LocalHost } from '@codeseam/lsp-local'

import type { MutationReceipt } from '../src/index.js'
import { between, removeTestLocks, occurrences, openWorld, sharedHost, type World } from './harness.js'

/** The mutating tools against the real pyright server through lsp-local. */

let host: LocalHost
const worlds: World[] = []
beforeAll(async () => {
  host = await sharedHost()
})
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.dispose()))
  await host.dispose()
  removeTestLocks()
})

async function world(options?: Parameters<typeof openWorld>[2]): Promise<World> {
  const w = await openWorld(host, 'py', options)
  worlds.push(w)
  return w
}

function expectOk(outcome: Awaited<ReturnType<World['call']>>): MutationReceipt {
  if (!outcome.ok) throw new Error(`tool failed: ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.structured.receipt as MutationReceipt
}

describe('code_rename (pyright)', () => {
  test('renames a function across modules; files re-read, diagnostics clean', async () => {
    const w = await world()
    const receipt = expectOk(await w.call('code_rename', { target: { path: 'pkg/shapes.py', symbol: 'helper' }, newName: 'double' }))
    expect(receipt.status).toBe('applied')
    const shapes = w.read('pkg/shapes.py')
    const main = w.read('pkg/main.py')
    expect(shapes).toContain('def double(x: int) -> int:')
    expect(shapes).toContain('return double(n) * n')
    expect(main).toContain('from pkg.shapes import Greeter, double')
    expect(main).toContain('str(double(2))')
    expect(shapes + main).not.toContain('helper')
    for (const file of receipt.files) expect(file.hashAfter).toBe(contentHash(w.read(file.path)))
    expect(receipt.diagnostics?.introduced.filter((d) => d.severity === 'error')).toEqual([])
  })

  test('a rename the server refuses (a builtin) is refused and writes nothing', async () => {
    const w = await world()
    const main = w.read('pkg/main.py')
    const line = new TextLines(main).positionAt(main.indexOf('str(helper')).line
    const outcome = await w.call('code_rename', { target: { path: 'pkg/main.py', line: line + 1, matchText: 'str' }, newName: 'text' })
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    const prepared = await w.lsp.query({
      operation: 'prepareRename',
      root: w.root,
      path: nodePath.join(w.root, 'pkg/main.py'),
      position: { line, character: new TextLines(main).lineText(line).indexOf('str') },
    })
    expect(prepared.rename.canRename).toBe(false)
    if (!prepared.rename.canRename) expect(outcome.error.message).toContain(prepared.rename.reason)
    expect(outcome.error.code).toBe('INVALID_ARGUMENT')
    expect((outcome.error.data.receipt as MutationReceipt).status).toBe('refused')
    expect(w.read('pkg/main.py')).toBe(main)
  })
})

describe('code_insert / code_replace symbol ranges (pyright)', () => {
  test('replacing a function under a multi-line decorator keeps the decorator and the comment above it', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_replace', {
        target: { path: 'pkg/shapes.py', symbol: 'cached' },
        text: 'def cached(n: int) -> int:\n    return helper(n) + n\n',
      }),
    )
    const text = w.read('pkg/shapes.py')
    expect(between(text, '# A cached square.', 'class Greeter')).toBe(
      '# A cached square.\n@functools.lru_cache(\n    maxsize=None\n)\ndef cached(n: int) -> int:\n    return helper(n) + n\n\n\n',
    )
    expect(receipt.notes.some((n) => n.includes('kept lines'))).toBe(true)
    expect(receipt.diagnostics?.introduced).toEqual([])
  })

  test('replacing a static method with flush-left text keeps @staticmethod and indents to the class', async () => {
    const w = await world()
    expectOk(
      await w.call('code_replace', {
        target: { path: 'pkg/shapes.py', symbol: 'Greeter.shout' },
        text: 'def shout(name: str) -> str:\n    return name.upper() + "!"',
      }),
    )
    const text = w.read('pkg/shapes.py')
    expect(text).toContain(
      '    greeting = "hello"\n\n    @staticmethod\n    def shout(name: str) -> str:\n        return name.upper() + "!"\n\n    def greet(',
    )
    expect(occurrences(text, '@staticmethod')).toBe(1)
  })

  test('insert at the start of a class goes after its docstring', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_insert', { target: { path: 'pkg/shapes.py', symbol: 'Greeter' }, position: 'start', text: 'count = 0' }),
    )
    expect(w.read('pkg/shapes.py')).toContain('class Greeter:\n    """Says hello."""\n    count = 0\n')
    expect(receipt.diagnostics?.introduced).toEqual([])
  })

  test('insert at the start of a function (after its docstring) and at the end of a class', async () => {
    const w = await world()
    expectOk(await w.call('code_insert', { target: { path: 'pkg/shapes.py', symbol: 'helper' }, position: 'start', text: 'assert x >= 0' }))
    expect(w.read('pkg/shapes.py')).toContain('def helper(x: int) -> int:\n    """Double x."""\n    assert x >= 0\n    return x * 2\n')
    expectOk(
      await w.call('code_insert', {
        target: { path: 'pkg/shapes.py', symbol: 'Greeter' },
        position: 'end',
        text: 'def bye(self) -> str:\n    return "bye"',
      }),
    )
    expect(
      w.read('pkg/shapes.py').endsWith('        return f"{self.greeting} {name}"\n    def bye(self) -> str:\n        return "bye"\n'),
    ).toBe(true)
  })

  test('insert after a top-level function keeps the two blank lines on each side', async () => {
    const w = await world()
    expectOk(
      await w.call('code_insert', {
        target: { path: 'pkg/shapes.py', symbol: 'helper' },
        position: 'after',
        text: 'def triple(x: int) -> int:\n    return x * 3',
      }),
    )
    expect(w.read('pkg/shapes.py')).toContain('    return x * 2\n\n\ndef triple(x: int) -> int:\n    return x * 3\n\n\n# A cached square.')
  })

  test('insert before a decorated function goes above its comment and decorator', async () => {
    const w = await world()
    expectOk(await w.call('code_insert', { target: { path: 'pkg/shapes.py', symbol: 'cached' }, position: 'before', text: 'LIMIT = 10' }))
    expect(w.read('pkg/shapes.py')).toContain('    return x * 2\n\n\nLIMIT = 10\n\n\n# A cached square.\n@functools.lru_cache(')
  })

  test('replacement text starting with a decorator replaces the decorators, not doubles them', async () => {
    const w = await world()
    expectOk(
      await w.call('code_replace', {
        target: { path: 'pkg/shapes.py', symbol: 'cached' },
        text: '@functools.cache\ndef cached(n: int) -> int:\n    return n',
      }),
    )
    const text = w.read('pkg/shapes.py')
    expect(text).toContain('# A cached square.\n@functools.cache\ndef cached(n: int) -> int:\n    return n\n')
    expect(text).not.toContain('lru_cache')
  })

  test('a replacement that breaks a caller reports the pushed diagnostic as introduced (after the new content was analysed)', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_replace', {
        target: { path: 'pkg/shapes.py', symbol: 'helper' },
        text: 'def helper(x: int, y: int) -> int:\n    return x * y',
      }),
    )
    expect(receipt.diagnostics?.settled).toBe(true)
    const introduced = receipt.diagnostics?.introduced ?? []
    expect(introduced.some((d) => d.severity === 'error' && (d.path === 'pkg/shapes.py' || d.path === 'pkg/main.py'))).toBe(true)
  })
})
