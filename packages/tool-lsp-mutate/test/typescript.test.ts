import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contentHash, pathToUri, TextLines } from '@codeseam/lsp'
import type { LocalHost } from '@codeseam/lsp-local'

import type { MutationReceipt } from '../src/index.js'
import { between, removeTestLocks, deferred, occurrences, openWorld, sharedHost, type World } from './harness.js'

/**
 * The mutating tools against the real native TypeScript 7 server through lsp-local: real files in temp
 * folders, positions found by text.
 */

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
  const w = await openWorld(host, 'ts', options)
  worlds.push(w)
  return w
}

function receiptOf(outcome: Awaited<ReturnType<World['call']>>): MutationReceipt {
  if (outcome.ok) return outcome.structured.receipt as MutationReceipt
  return outcome.error.data.receipt as MutationReceipt
}

function expectOk(outcome: Awaited<ReturnType<World['call']>>): MutationReceipt {
  if (!outcome.ok) throw new Error(`tool failed: ${outcome.error.code}: ${outcome.error.message}`)
  return receiptOf(outcome)
}

describe('code_rename (native TypeScript 7)', () => {
  test('renames across files; re-read files and diagnostics stay clean', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'circleArea' }, newName: 'circleSurface' }),
    )
    expect(receipt.status).toBe('applied')
    const shapes = w.read('src/shapes.ts')
    const main = w.read('src/main.ts')
    const imports = w.read('src/imports.ts')
    for (const text of [shapes, main, imports]) {
      expect(text).toContain('circleSurface')
      expect(text).not.toContain('circleArea')
    }
    expect(receipt.files.map((f) => f.path).sort()).toEqual(['src/imports.ts', 'src/main.ts', 'src/shapes.ts'])
    for (const file of receipt.files) expect(file.hashAfter).toBe(contentHash(w.read(file.path)))
    expect(receipt.diagnostics?.introduced.filter((d) => d.severity === 'error')).toEqual([])
    expect(receipt.diagnostics?.settled).toBe(true)
    expect(receipt.approval.decision).toBe('auto')
  })

  test('a rename the server refuses carries its reason verbatim and writes nothing', async () => {
    const w = await world()
    const shapes = w.read('src/shapes.ts')
    const line = new TextLines(shapes).positionAt(shapes.indexOf('Math.PI')).line
    const position = { line, character: new TextLines(shapes).lineText(line).indexOf('PI') }
    const prepared = await w.lsp.query({ operation: 'prepareRename', root: w.root, path: nodePath.join(w.root, 'src/shapes.ts'), position })
    expect(prepared.rename.canRename).toBe(false)
    const reason = prepared.rename.canRename ? '' : prepared.rename.reason
    expect(reason.length).toBeGreaterThan(0)
    const outcome = await w.call('code_rename', { target: { path: 'src/shapes.ts', line: line + 1, matchText: 'PI' }, newName: 'TAU' })
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.message).toContain(reason)
    expect(receiptOf(outcome).status).toBe('refused')
    expect(w.read('src/shapes.ts')).toBe(shapes)
  })

  test('approval denied: nothing written, the receipt says so', async () => {
    const w = await world({ approve: () => ({ decision: 'deny', reason: 'not today' }) })
    const before = w.read('src/main.ts')
    const outcome = await w.call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'Rect' }, newName: 'Box' })
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.code).toBe('APPROVAL_DENIED')
    const receipt = receiptOf(outcome)
    expect(receipt.status).toBe('denied')
    expect(receipt.approval).toMatchObject({ decision: 'denied', deniedReason: 'not today' })
    expect(receipt.files.every((f) => !f.saved)).toBe(true)
    expect(receipt.preview?.counts.files).toBeGreaterThanOrEqual(2)
    expect(w.read('src/main.ts')).toBe(before)
  })

  test('dryRun previews a diff and a structured edit list without writing', async () => {
    const w = await world({})
    const before = w.read('src/main.ts')
    const receipt = expectOk(
      await w.call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'defaultScale' }, newName: 'scale', dryRun: true }),
    )
    expect(receipt.status).toBe('previewed')
    expect(receipt.approval.decision).toBe('notAsked')
    const main = receipt.preview?.files.find((f) => f.path === 'src/main.ts')
    expect(main?.diff).toContain('-import { circleArea, defaultScale, Rect }')
    expect(main?.diff).toContain('+import { circleArea, scale, Rect }')
    const edit = main?.edits[0]
    expect(edit?.oldText).toBe('defaultScale')
    const line = before.split('\n')[(edit?.range.start.line ?? 1) - 1] ?? ''
    expect(line.slice((edit?.range.start.column ?? 1) - 1, (edit?.range.end.column ?? 1) - 1)).toBe('defaultScale')
    expect(w.read('src/main.ts')).toBe(before)
  })

  test('expectedHashes: a mismatch is STALE_VERSION and writes nothing; a match applies', async () => {
    const w = await world()
    const before = w.read('src/shapes.ts')
    const stale = await w.call('code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'Rect' },
      newName: 'Box',
      expectedHashes: [{ path: 'src/shapes.ts', hash: contentHash('something else') }],
    })
    expect(stale.ok).toBe(false)
    if (!stale.ok) expect(stale.error.code).toBe('STALE_VERSION')
    expect(w.read('src/shapes.ts')).toBe(before)
    const freshOutcome = await w.call('code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'Rect' },
      newName: 'Box',
      expectedHashes: [{ path: 'src/shapes.ts', hash: contentHash(before) }],
    })
    const fresh = expectOk(freshOutcome)
    expect(fresh.status).toBe('applied')
    expect(w.read('src/shapes.ts')).toContain('export class Box')
    // The hash as the receipt's text prints it (12 digits, issue 32) is accepted; fewer digits are not a hash.
    const printed = /modify src\/shapes\.ts: [^\n]* hash ([0-9a-f]{12})/.exec(freshOutcome.text)?.[1]
    expect(printed, freshOutcome.text).toBe(contentHash(w.read('src/shapes.ts')).slice(0, 12))
    const again = expectOk(
      await w.call('code_rename', {
        target: { path: 'src/shapes.ts', symbol: 'Box' },
        newName: 'Rect',
        expectedHashes: [{ path: 'src/shapes.ts', hash: printed ?? '' }],
      }),
    )
    expect(again.status).toBe('applied')
    const short = await w.call('code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'Rect' },
      newName: 'Box',
      expectedHashes: [{ path: 'src/shapes.ts', hash: contentHash(w.read('src/shapes.ts')).slice(0, 8) }],
    })
    expect(short.ok === false && short.error.code).toBe('STALE_VERSION')
  })
})

describe('code_actions and code_format (native TypeScript 7)', () => {
  test('organize imports: listed with ids, applied by id, duplicate import merged', async () => {
    const w = await world()
    const listed = await w.call('code_actions', { path: 'src/imports.ts', line: 1, only: ['source.organizeImports'] })
    expect(listed.ok).toBe(true)
    if (!listed.ok) return
    const actions = listed.structured.actions as Array<{ id: string; title: string; kind?: string }>
    const organize = actions.find((a) => a.kind?.startsWith('source.organizeImports'))
    expect(organize).toBeDefined()
    const receipt = expectOk(
      await w.call('code_actions', { path: 'src/imports.ts', line: 1, only: ['source.organizeImports'], apply: organize!.id }),
    )
    expect(receipt.status).toBe('applied')
    const after = w.read('src/imports.ts')
    expect(occurrences(after, "from './shapes'")).toBe(1)
    expect(after).not.toMatch(/\bRect\b/)
    expect(after).toContain('circleArea')
  })

  test('a title prefix is refused, not guessed', async () => {
    const w = await world()
    const listed = await w.call('code_actions', { path: 'src/imports.ts', line: 1, only: ['source.organizeImports'] })
    if (!listed.ok) throw new Error(listed.error.message)
    const title = (listed.structured.actions as Array<{ title: string }>)[0]!.title
    const before = w.read('src/imports.ts')
    const outcome = await w.call('code_actions', {
      path: 'src/imports.ts',
      line: 1,
      only: ['source.organizeImports'],
      apply: title.slice(0, 5),
    })
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.error.code).toBe('NOT_FOUND')
    expect(w.read('src/imports.ts')).toBe(before)
  })

  test('formatting that changes the file, then formatting that does not', async () => {
    const w = await world()
    const first = expectOk(await w.call('code_format', { path: 'src/ugly.ts' }))
    expect(first.status).toBe('applied')
    const formatted = w.read('src/ugly.ts')
    expect(formatted).toContain('ugly(a: number, b: number)')
    expect(first.files[0]?.hashAfter).toBe(contentHash(formatted))
    const second = expectOk(await w.call('code_format', { path: 'src/ugly.ts' }))
    expect(second.status).toBe('unchanged')
    expect(w.read('src/ugly.ts')).toBe(formatted)
  })
})

test('range formatting changes only the lines asked for', async () => {
  const w = await world()
  writeFileSync(nodePath.join(w.root, 'src/two.ts'), 'export const  a=1\nexport const  b=2\n')
  const receipt = expectOk(await w.call('code_format', { path: 'src/two.ts', range: { startLine: 2, endLine: 2 } }))
  expect(receipt.status).toBe('applied')
  expect(w.read('src/two.ts')).toBe('export const  a=1\nexport const b = 2\n')
})

describe('code_insert / code_replace symbol ranges (native TypeScript 7)', () => {
  test('replacing an exported const does not duplicate "export const"; its doc comment stays', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_replace', { target: { path: 'src/shapes.ts', symbol: 'defaultScale' }, text: 'export const defaultScale = 3;' }),
    )
    const text = w.read('src/shapes.ts')
    expect(occurrences(text, 'export const')).toBe(1)
    expect(text).toContain('/** The default scale. */\nexport const defaultScale = 3;\n\nfunction logged')
    expect(receipt.diagnostics?.introduced).toEqual([])
  })

  test('replacing a decorated method keeps the decorator, re-indents flush-left text, keeps blank lines', async () => {
    const w = await world()
    expectOk(
      await w.call('code_replace', { target: { path: 'src/shapes.ts', symbol: 'Rect.area' }, text: 'area(): number {\n  return 0\n}\n' }),
    )
    const text = w.read('src/shapes.ts')
    expect(between(text, '{}\n', 'perimeter')).toBe('{}\n\n  @logged\n  area(): number {\n    return 0\n  }\n\n  ')
  })

  test('replacement text that brings its own decorator replaces the old one instead of doubling it', async () => {
    const w = await world()
    expectOk(
      await w.call('code_replace', {
        target: { path: 'src/shapes.ts', symbol: 'Rect.area' },
        text: '  @logged\n  area(): number {\n    return 1\n  }',
      }),
    )
    const text = w.read('src/shapes.ts')
    expect(occurrences(text, '@logged')).toBe(1)
    expect(text).toContain('  @logged\n  area(): number {\n    return 1\n  }\n')
  })

  test('replacement text with a doc comment replaces the old doc comment', async () => {
    const w = await world()
    expectOk(
      await w.call('code_replace', {
        target: { path: 'src/shapes.ts', symbol: 'circleArea' },
        text: '/** Area of a circle, by radius. */\nexport function circleArea(radius: number): number {\n  return Math.PI * radius ** 2\n}',
      }),
    )
    const text = w.read('src/shapes.ts')
    expect(
      text.startsWith(
        '/** Area of a circle, by radius. */\nexport function circleArea(radius: number): number {\n  return Math.PI * radius ** 2\n}\n\n/** The default scale. */',
      ),
    ).toBe(true)
    expect(text).not.toContain('/** Area of a circle. */')
  })

  test("insert before a documented class goes above its doc comment, with the file's spacing", async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_insert', {
        target: { path: 'src/shapes.ts', symbol: 'Rect' },
        position: 'before',
        text: 'export const sides = 4',
      }),
    )
    const text = w.read('src/shapes.ts')
    expect(text).toContain('}\n\nexport const sides = 4\n\n/**\n * A rectangle.\n */\nexport class Rect {')
    expect(receipt.diagnostics?.introduced).toEqual([])
  })

  test('insert after a function keeps one blank line on each side', async () => {
    const w = await world()
    expectOk(
      await w.call('code_insert', {
        target: { path: 'src/shapes.ts', symbol: 'circleArea' },
        position: 'after',
        text: 'export function half(x: number): number {\n  return x / 2\n}',
      }),
    )
    const text = w.read('src/shapes.ts')
    expect(text).toContain(
      '  return Math.PI * radius * radius\n}\n\nexport function half(x: number): number {\n  return x / 2\n}\n\n/** The default scale. */',
    )
  })

  test('insert at the end and start of a class body, indented to the body', async () => {
    const w = await world()
    expectOk(
      await w.call('code_insert', {
        target: { path: 'src/shapes.ts', symbol: 'Rect' },
        position: 'end',
        text: 'describe(): string {\n  return "rect"\n}',
      }),
    )
    expectOk(
      await w.call('code_insert', {
        target: { path: 'src/shapes.ts', symbol: 'Rect' },
        position: 'start',
        text: 'static readonly sides = 4',
      }),
    )
    const text = w.read('src/shapes.ts')
    expect(text).toContain('export class Rect {\n  static readonly sides = 4\n  constructor(')
    expect(text).toContain('  }\n  describe(): string {\n    return "rect"\n  }\n}\n')
  })

  test('code_replace_batch: all targets resolved first, applied together; overlaps refused', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_replace_batch', {
        edits: [
          { target: { path: 'src/shapes.ts', symbol: 'defaultScale' }, text: 'export const defaultScale = 5;' },
          {
            target: { path: 'src/main.ts', symbol: 'total' },
            text: 'export function total(): number {\n  return circleArea(1) * defaultScale + new Rect(1, 1).area()\n}',
          },
        ],
      }),
    )
    expect(receipt.status).toBe('applied')
    expect(receipt.files).toHaveLength(2)
    expect(w.read('src/shapes.ts')).toContain('export const defaultScale = 5;')
    expect(w.read('src/main.ts')).toContain('new Rect(1, 1).area()')
    const before = w.read('src/shapes.ts')
    const overlap = await w.call('code_replace_batch', {
      edits: [
        { target: { path: 'src/shapes.ts', symbol: 'Rect' }, text: 'export class Rect {}' },
        { target: { path: 'src/shapes.ts', symbol: 'Rect.area' }, text: 'area() { return 1 }' },
      ],
    })
    expect(outcomeCode(overlap)).toBe('INVALID_ARGUMENT')
    expect(w.read('src/shapes.ts')).toBe(before)
  })

  test('a replacement that introduces a type error reports it as introduced', async () => {
    const w = await world()
    const receipt = expectOk(
      await w.call('code_replace', {
        target: { path: 'src/shapes.ts', symbol: 'defaultScale' },
        text: 'export const defaultScale: string = 2;',
      }),
    )
    expect(receipt.diagnostics?.introduced.some((d) => d.path === 'src/shapes.ts' && d.severity === 'error')).toBe(true)
  })
})

function outcomeCode(outcome: Awaited<ReturnType<World['call']>>): string | undefined {
  return outcome.ok ? undefined : outcome.error.code
}

describe('transaction safety (native TypeScript 7)', () => {
  test('a file changed between preview and apply: STALE_VERSION, nothing written', async () => {
    let w!: World
    w = await world({
      approve: () => {
        writeFileSync(nodePath.join(w.root, 'src/main.ts'), `${w.read('src/main.ts')}\n// edited meanwhile\n`)
        return 'approve'
      },
    })
    const shapes = w.read('src/shapes.ts')
    const outcome = await w.call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'circleArea' }, newName: 'disc' })
    expect(outcomeCode(outcome)).toBe('STALE_VERSION')
    expect(receiptOf(outcome).status).toBe('conflict')
    expect(w.read('src/shapes.ts')).toBe(shapes)
    expect(w.read('src/main.ts')).toContain('circleArea')
    expect(w.read('src/main.ts')).toContain('// edited meanwhile')
  })

  test('a write failure in the middle of a multi-file apply restores every file byte for byte', async () => {
    let w!: World
    w = await world({
      approve: () => {
        // After the preview, a plain file takes the place of the folder the edit creates a file in.
        writeFileSync(nodePath.join(w.root, 'gen'), 'not a folder')
        return 'approve'
      },
    })
    const shapesPath = nodePath.join(w.root, 'src/shapes.ts')
    const mainPath = nodePath.join(w.root, 'src/main.ts')
    const before = { shapes: readFileSync(shapesPath), main: readFileSync(mainPath) }
    const receipt = await w.session.run(w.lsp, {
      tool: 'test_multi_file',
      root: w.root,
      async compute() {
        const end = { line: 0, character: 0 }
        return {
          edit: {
            operations: [
              {
                type: 'edit',
                uri: pathToUri(shapesPath),
                path: shapesPath,
                version: null,
                edits: [{ range: { start: end, end }, newText: '// first\n' }],
              },
              { type: 'create', uri: pathToUri(nodePath.join(w.root, 'gen/out.ts')), path: nodePath.join(w.root, 'gen/out.ts') },
              {
                type: 'edit',
                uri: pathToUri(mainPath),
                path: mainPath,
                version: null,
                edits: [{ range: { start: end, end }, newText: '// last\n' }],
              },
            ],
          },
        }
      },
    })
    expect(receipt.status).toBe('failed')
    expect(receipt.error?.code).toBe('WRITE_FAILED')
    expect(readFileSync(shapesPath).equals(before.shapes)).toBe(true)
    expect(readFileSync(mainPath).equals(before.main)).toBe(true)
    expect(readFileSync(nodePath.join(w.root, 'gen'), 'utf8')).toBe('not a folder')
  })

  test('an edit whose URI escapes the root is refused and nothing is written', async () => {
    const w = await world()
    const outside = nodePath.join(nodePath.dirname(w.root), `outside-${nodePath.basename(w.root)}.ts`)
    writeFileSync(outside, 'export const secret = 1\n')
    const shapesPath = nodePath.join(w.root, 'src/shapes.ts')
    const shapes = w.read('src/shapes.ts')
    const start = { line: 0, character: 0 }
    const receipt = await w.session.run(w.lsp, {
      tool: 'test_escape',
      root: w.root,
      async compute() {
        return {
          edit: {
            operations: [
              {
                type: 'edit',
                uri: pathToUri(shapesPath),
                path: shapesPath,
                version: null,
                edits: [{ range: { start, end: start }, newText: '// x\n' }],
              },
              {
                type: 'edit',
                uri: pathToUri(outside),
                path: outside,
                version: null,
                edits: [{ range: { start, end: start }, newText: '// pwned\n' }],
              },
            ],
          },
        }
      },
    })
    expect(receipt.status).toBe('refused')
    expect(receipt.error?.code).toBe('OUTSIDE_WORKSPACE')
    expect(readFileSync(outside, 'utf8')).toBe('export const secret = 1\n')
    expect(w.read('src/shapes.ts')).toBe(shapes)
    rmSync(outside)
  })

  test('concurrent mutations of one root are serialized while reads proceed', async () => {
    const gate = deferred()
    const firstAsked = deferred()
    const events: string[] = []
    let asked = 0
    let released = false
    let secondAskedAfterRelease: boolean | undefined
    const w = await world({
      approve: async (request): Promise<'approve'> => {
        asked++
        events.push(`approve:${request.summary}`)
        if (asked === 2) secondAskedAfterRelease = released
        if (asked === 1) {
          firstAsked.resolve()
          await gate.promise
        }
        return 'approve'
      },
    })
    const first = w.call('code_insert', {
      target: { path: 'src/shapes.ts', symbol: 'Rect' },
      position: 'end',
      text: 'first(): number {\n  return 1\n}',
    })
    await firstAsked.promise
    const second = w.call('code_insert', {
      target: { path: 'src/shapes.ts', symbol: 'Rect' },
      position: 'end',
      text: 'second(): number {\n  return 2\n}',
    })
    // While the first mutation waits for approval: reads answer, the second mutation waits in the queue.
    const symbols = await w.lsp.query({ operation: 'documentSymbols', root: w.root, path: nodePath.join(w.root, 'src/shapes.ts') })
    events.push('read done')
    expect(symbols.symbols.map((s) => s.name)).toContain('Rect')
    expect(w.session.queue.pending(w.root)).toBeGreaterThanOrEqual(1)
    released = true
    gate.resolve()
    const [a, b] = await Promise.all([first, second])
    events.push('both done')
    expect(expectOk(a).status).toBe('applied')
    expect(expectOk(b).status).toBe('applied')
    expect(events[0]).toMatch(/^approve:/)
    expect(events[1]).toBe('read done')
    expect(events[2]).toMatch(/^approve:/)
    expect(secondAskedAfterRelease).toBe(true)
    // The second edit was computed on the first one's result (else it would have been STALE_VERSION).
    const text = w.read('src/shapes.ts')
    expect(text.indexOf('first()')).toBeGreaterThan(0)
    expect(text.indexOf('second()')).toBeGreaterThan(text.indexOf('first()'))
  })

  test('approve all covers later previewable changes but not a delete', async () => {
    const asked: string[] = []
    const w = await world({
      approve: (request) => {
        asked.push(request.tool)
        return request.explicitReasons.length > 0 ? { decision: 'deny', reason: 'deletes need a person' } : 'approveAll'
      },
    })
    expectOk(await w.call('code_format', { path: 'src/ugly.ts' }))
    expectOk(
      await w.call('code_replace', { target: { path: 'src/shapes.ts', symbol: 'defaultScale' }, text: 'export const defaultScale = 7;' }),
    )
    expect(asked).toEqual(['code_format'])
    mkdirSync(nodePath.join(w.root, 'tmp'), { recursive: true })
    writeFileSync(nodePath.join(w.root, 'tmp/old.ts'), 'export {}\n')
    const doomed = nodePath.join(w.root, 'tmp/old.ts')
    const receipt = await w.session.run(w.lsp, {
      tool: 'test_delete',
      root: w.root,
      async compute() {
        return { edit: { operations: [{ type: 'delete', uri: pathToUri(doomed), path: doomed }] } }
      },
    })
    expect(asked).toEqual(['code_format', 'test_delete'])
    expect(receipt.status).toBe('denied')
    expect(receipt.approval.explicitRequired).toBe(true)
    expect(readFileSync(doomed, 'utf8')).toBe('export {}\n')
  })
})
