import { describe, expect, it } from 'vitest'

import { createLsp, LspError, resultMeta, type LspErrorCode, type LspProvider, type LspService } from '../src/index.js'
import { staticProvider } from './providers.js'

const root = '/work/project'

function snapshot(lsp: LspService) {
  return JSON.stringify({ providers: lsp.providers(), ops: lsp.operationsFor('a.ts'), owner: lsp.providerFor('a.py') ?? null })
}

function expectCode(run: () => unknown, code: LspErrorCode) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(LspError)
    expect((error as LspError).code).toBe(code)
    return error as LspError
  }
  throw new Error(`expected LspError ${code}, nothing was thrown`)
}

async function expectRejects(promise: Promise<unknown>, code: LspErrorCode) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LspError)
  expect((error as LspError).code).toBe(code)
  return error as LspError
}

describe('registerProvider', () => {
  const invalid: Array<[string, LspProvider, LspErrorCode]> = [
    ['empty id', staticProvider('', { '.rb': 'ruby' }), 'INVALID_PROVIDER'],
    ['id with spaces', staticProvider(' ruby ', { '.rb': 'ruby' }), 'INVALID_PROVIDER'],
    ['duplicate id', staticProvider('ts', { '.rb': 'ruby' }), 'CONFLICT'],
    ['no extensions', staticProvider('ruby', {}), 'INVALID_PROVIDER'],
    ['malformed extension', staticProvider('ruby', { '.r/b': 'ruby' }), 'INVALID_PROVIDER'],
    ['empty language id', staticProvider('ruby', { '.rb': ' ' }), 'INVALID_PROVIDER'],
    ['two keys normalizing to one extension', staticProvider('ruby', { '.RB': 'ruby', rb: 'ruby' }), 'INVALID_PROVIDER'],
    ['extension conflict (normalized)', staticProvider('other', { '.rb': 'ruby', '.TS': 'typescript' }), 'CONFLICT'],
    ['no operations', staticProvider('ruby', { '.rb': 'ruby' }, { operations: [] }), 'INVALID_PROVIDER'],
    ['unknown operation', staticProvider('ruby', { '.rb': 'ruby' }, { operations: ['teleport' as never] }), 'INVALID_PROVIDER'],
  ]

  for (const [label, provider, code] of invalid) {
    it(`rejects ${label} with ${code} and leaves the registry exactly as it was`, () => {
      const lsp = createLsp()
      lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
      lsp.registerProvider(staticProvider('py', { '.py': 'python' }))
      const before = snapshot(lsp)
      expectCode(() => lsp.registerProvider(provider), code)
      expect(snapshot(lsp)).toBe(before)
      // The extension the failed registration named first is still free (nothing was half-published).
      expect(lsp.providerFor('x.rb')).toBeUndefined()
    })
  }

  it('normalizes extensions and selects by the final extension, independent of registration order', async () => {
    for (const order of [0, 1]) {
      const lsp = createLsp()
      const ts = staticProvider('ts', { TS: 'typescript', '.Tsx': 'typescriptreact' })
      const md = staticProvider('md', { '.md': 'markdown' })
      for (const p of order === 0 ? [ts, md] : [md, ts]) lsp.registerProvider(p)
      await lsp.query({ operation: 'definition', root, path: 'src/types.d.ts', position: { line: 0, character: 0 } })
      await lsp.query({ operation: 'definition', root, path: 'App.TSX', position: { line: 0, character: 0 } })
      expect(ts.calls.map((c) => c.languageId)).toEqual(['typescript', 'typescriptreact'])
      expect(ts.calls[0]?.path).toBe('/work/project/src/types.d.ts')
      expect(md.calls).toHaveLength(0)
    }
  })

  it('reports UNAVAILABLE naming the extension and what is registered', async () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
    const error = await expectRejects(
      lsp.query({ operation: 'hover', root, path: 'main.go', position: { line: 0, character: 0 } }),
      'UNAVAILABLE',
    )
    expect(error.message).toContain('.go')
    expect(error.message).toContain('.ts')
    const dotfile = await expectRejects(
      lsp.query({ operation: 'hover', root, path: '.bashrc', position: { line: 0, character: 0 } }),
      'UNAVAILABLE',
    )
    expect(dotfile.message).toContain('no file extension')
  })

  it('fails an unsupported operation with UNSUPPORTED_OPERATION before calling the provider', async () => {
    const lsp = createLsp()
    const ts = staticProvider('ts', { '.ts': 'typescript' }, { operations: ['hover'] })
    lsp.registerProvider(ts)
    await expectRejects(
      lsp.query({ operation: 'rename', root, path: 'a.ts', position: { line: 0, character: 0 }, newName: 'x' }),
      'UNSUPPORTED_OPERATION',
    )
    expect(ts.calls).toHaveLength(0)
  })

  it('releases every reservation together; the disposer is idempotent', async () => {
    const lsp = createLsp()
    const ts = staticProvider('ts', { '.ts': 'typescript', '.tsx': 'typescriptreact' })
    const release = lsp.registerProvider(ts)
    await Promise.all([release(), release()])
    await release()
    expect(lsp.providers()).toEqual([])
    expect(lsp.providerFor('a.tsx')).toBeUndefined()
    expect(ts.disposed).toBe(1)
    // Everything it held can be taken again.
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript', '.tsx': 'typescriptreact' }))
  })

  it('introspection lists providers, extensions and operations per file', () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.TS': 'typescript' }, { operations: ['hover', 'definition'] }))
    expect(lsp.providers()).toEqual([
      { id: 'ts', extensions: { '.ts': 'typescript' }, fileNames: {}, interpreters: {}, operations: ['hover', 'definition'] },
    ])
    expect(lsp.operationsFor('x/y.ts')).toEqual(['hover', 'definition'])
    expect(lsp.operationsFor('x/y.rs')).toEqual([])
    expect(lsp.providerFor('y.ts')).toEqual({ providerId: 'ts', languageId: 'typescript' })
  })
})

describe('query', () => {
  it('rejects bad positions with INVALID_ARGUMENT', async () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
    for (const position of [
      { line: -1, character: 0 },
      { line: 0, character: 1.5 },
      { line: 0, character: Number.NaN },
    ]) {
      await expectRejects(lsp.query({ operation: 'definition', root, path: 'a.ts', position }), 'INVALID_ARGUMENT')
    }
  })

  it('refuses text that is not well-formed Unicode (a lone surrogate) before any provider sees it', async () => {
    const lsp = createLsp()
    const ts = staticProvider('ts', { '.ts': 'typescript' }, { operations: ['rename', 'codeActions'] })
    lsp.registerProvider(ts)
    const position = { line: 0, character: 0 }
    for (const newName of ['\ud800', 'a\udc00b', 'x\ud83d']) {
      const error = await expectRejects(lsp.query({ operation: 'rename', root, path: 'a.ts', position, newName }), 'INVALID_ARGUMENT')
      expect(error.message).toContain('newName is not well-formed Unicode')
    }
    const range = { start: position, end: position }
    const error = await expectRejects(
      lsp.query({ operation: 'codeActions', root, path: 'a.ts', range, only: ['quickfix', '\udfff'] }),
      'INVALID_ARGUMENT',
    )
    expect(error.message).toContain('only[1] is not well-formed Unicode')
    expect(ts.calls).toEqual([])
    // A surrogate pair is well-formed and reaches the provider (whose static answer does not matter here): a
    // mathematical italic letter (U+1D465), an identifier character, so the new-name check lets it through.
    await lsp.query({ operation: 'rename', root, path: 'a.ts', position, newName: 'x\ud835\udc65' }).catch(() => undefined)
    expect(ts.calls.map((c) => c.operation)).toEqual(['rename'])
  })

  it('refuses paths outside the root before any provider sees them', async () => {
    const lsp = createLsp()
    const ts = staticProvider('ts', { '.ts': 'typescript' })
    lsp.registerProvider(ts)
    for (const path of ['../escape.ts', '/etc/x.ts', 'a/%2e%2e/b.ts', 'C:\\x.ts', 'https://example.com/a.ts', 'a/../../b.ts']) {
      await expectRejects(lsp.query({ operation: 'definition', root, path, position: { line: 0, character: 0 } }), 'OUTSIDE_WORKSPACE')
    }
    expect(ts.calls).toHaveLength(0)
  })

  it('maps a wrong result kind to MALFORMED_RESPONSE and a foreign error to SERVER_ERROR', async () => {
    const lsp = createLsp()
    lsp.registerProvider(
      staticProvider('ts', { '.ts': 'typescript' }, { answer: () => ({ kind: 'hover', hover: null, meta: resultMeta('ts') }) }),
    )
    await expectRejects(
      lsp.query({ operation: 'definition', root, path: 'a.ts', position: { line: 0, character: 0 } }),
      'MALFORMED_RESPONSE',
    )
    lsp.registerProvider(
      staticProvider(
        'py',
        { '.py': 'python' },
        {
          answer: () => {
            throw new TypeError('boom')
          },
        },
      ),
    )
    const error = await expectRejects(
      lsp.query({ operation: 'definition', root, path: 'a.py', position: { line: 0, character: 0 } }),
      'SERVER_ERROR',
    )
    expect(error.message).toContain('boom')
  })

  it('drops locations outside the root and counts them', async () => {
    const lsp = createLsp()
    lsp.registerProvider(
      staticProvider(
        'ts',
        { '.ts': 'typescript' },
        {
          answer: () => ({
            kind: 'locations',
            locations: [
              {
                uri: 'file:///work/project/a.ts',
                path: '/work/project/a.ts',
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
              },
              {
                uri: 'file:///etc/passwd',
                path: '/etc/passwd',
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
              },
            ],
            meta: resultMeta('ts'),
          }),
        },
      ),
    )
    const result = await lsp.query({ operation: 'references', root, path: 'a.ts', position: { line: 0, character: 0 } })
    expect(result.locations.map((l) => l.path)).toEqual(['/work/project/a.ts'])
    expect(result.meta.droppedOutsideWorkspace).toBe(1)
    expect(result.meta.providerId).toBe('ts')
  })

  it('cancels: an aborted signal rejects with CANCELLED and aborts the provider signal', async () => {
    const lsp = createLsp()
    let providerSignal: AbortSignal | undefined
    let started!: () => void
    const startedPromise = new Promise<void>((resolve) => (started = resolve))
    lsp.registerProvider({
      id: 'slow',
      extensions: { '.ts': 'typescript' },
      operations: ['hover'],
      query: (_request, signal) => {
        providerSignal = signal
        started()
        return new Promise(() => {}) as never
      },
    })
    const controller = new AbortController()
    const pending = lsp.query({ operation: 'hover', root, path: 'a.ts', position: { line: 0, character: 0 } }, controller.signal)
    await startedPromise
    controller.abort()
    await expectRejects(pending, 'CANCELLED')
    expect(providerSignal?.aborted).toBe(true)
    // Already aborted before the call: CANCELLED without calling the provider.
    await expectRejects(
      lsp.query({ operation: 'hover', root, path: 'a.ts', position: { line: 0, character: 0 } }, controller.signal),
      'CANCELLED',
    )
  })

  it('cancels a fan-out: every provider sees the abort, the caller gets CANCELLED, and no listener stays on its signal', async () => {
    const lsp = createLsp()
    const seen: AbortSignal[] = []
    let started!: () => void
    const allStarted = new Promise<void>((resolve) => (started = resolve))
    const count = 12 // more than Node's default listener warning threshold on one signal
    for (let i = 0; i < count; i++) {
      lsp.registerProvider({
        id: `slow-${i}`,
        extensions: { [`.x${i}`]: 'x' },
        operations: ['workspaceSymbols'],
        query: (_request, signal) => {
          seen.push(signal)
          if (seen.length === count) started()
          return new Promise(() => {}) as never
        },
      })
    }
    const controller = new AbortController()
    const added: string[] = []
    const removed: string[] = []
    const signal = controller.signal
    const add = signal.addEventListener.bind(signal)
    const remove = signal.removeEventListener.bind(signal)
    signal.addEventListener = (
      type: string,
      listener: Parameters<AbortSignal['addEventListener']>[1],
      options?: Parameters<AbortSignal['addEventListener']>[2],
    ) => {
      added.push(type)
      add(type, listener, options)
    }
    signal.removeEventListener = (type: string, listener: Parameters<AbortSignal['removeEventListener']>[1]) => {
      removed.push(type)
      remove(type, listener)
    }
    const pending = lsp.query({ operation: 'workspaceSymbols', root, query: 'a' }, controller.signal)
    await allStarted
    controller.abort()
    await expectRejects(pending, 'CANCELLED')
    expect(seen.every((signal) => signal.aborted)).toBe(true)
    // One listener on the caller's signal for the whole fan-out, removed when it ends.
    expect(added).toEqual(['abort'])
    expect(removed).toEqual(['abort'])
  })

  it('fans workspace symbols and workspace diagnostics out to every supporting provider and reports failures', async () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
    lsp.registerProvider(staticProvider('py', { '.py': 'python' }))
    lsp.registerProvider(
      staticProvider(
        'broken',
        { '.rs': 'rust' },
        {
          answer: () => {
            throw new LspError('SERVER_CRASHED', 'rust-analyzer died')
          },
        },
      ),
    )
    const diagnostics = await lsp.query({ operation: 'diagnostics', root })
    expect(diagnostics.coverage.analysed).toEqual(['/ts', '/py'])
    expect(diagnostics.coverage.complete).toBe(false)
    expect(diagnostics.meta.failures).toEqual([{ providerId: 'broken', code: 'SERVER_CRASHED', message: 'rust-analyzer died' }])
    expect(diagnostics.meta.status).toBe('degraded')
    await expectRejects(lsp.query({ operation: 'workspaceSymbols', root, query: '  ' }), 'INVALID_ARGUMENT')
  })

  it('a fan-out where every provider fails rejects with a typed error, never an empty result', async () => {
    const lsp = createLsp()
    lsp.registerProvider(
      staticProvider(
        'broken',
        { '.rs': 'rust' },
        {
          answer: () => {
            throw new LspError('TIMEOUT', 'too slow')
          },
        },
      ),
    )
    await expectRejects(lsp.query({ operation: 'workspaceSymbols', root, query: 'x' }), 'TIMEOUT')
  })
})

describe('workspaces and applyEdit', () => {
  const workspace = (id: string, wsRoot: string) => ({
    id,
    root: wsRoot,
    readFile: async () => {
      throw new LspError('NOT_FOUND', 'x')
    },
    exists: async () => false,
    applyEdit: async () => ({ files: [{ path: `${wsRoot}/a.json`, editCount: 1, saved: true }], resourceOperations: [] }),
  })

  it('routes applyEdit by root, not by extension, and refuses unknown roots', async () => {
    const lsp = createLsp()
    lsp.registerWorkspace(workspace('a', '/work/a'))
    const result = await lsp.applyEdit({ operations: [] }, { root: '/work/a/' })
    expect(result.files[0]?.path).toBe('/work/a/a.json')
    await expectRejects(lsp.applyEdit({ operations: [] }, { root: '/work/b' }), 'UNAVAILABLE')
  })

  it('refuses a second workspace at the same root or with the same id', () => {
    const lsp = createLsp()
    const release = lsp.registerWorkspace(workspace('a', '/work/a'))
    expectCode(() => lsp.registerWorkspace(workspace('b', '/work/a')), 'CONFLICT')
    expectCode(() => lsp.registerWorkspace(workspace('a', '/work/c')), 'CONFLICT')
    expectCode(() => lsp.registerWorkspace(workspace('rel', 'work/rel')), 'INVALID_ARGUMENT')
    expect(lsp.workspaces()).toEqual([{ id: 'a', root: '/work/a' }])
    void release()
  })
})

describe('status and dispose', () => {
  it('forwards status changes and stops after unsubscribe', () => {
    const lsp = createLsp()
    let emit!: (s: { providerId: string; state: 'ready' | 'starting' }) => void
    lsp.registerProvider({
      ...staticProvider('ts', { '.ts': 'typescript' }),
      status: () => [{ providerId: 'ts', root, state: 'starting' }],
      onStatusChange: (listener) => {
        emit = listener
        return () => {}
      },
    })
    const seen: string[] = []
    const unsubscribe = lsp.onStatusChange((s) => seen.push(s.state))
    emit({ providerId: 'ts', state: 'ready' })
    unsubscribe()
    emit({ providerId: 'ts', state: 'starting' })
    expect(seen).toEqual(['ready'])
    expect(lsp.status()).toEqual([{ providerId: 'ts', root, state: 'starting' }])
  })

  it('after dispose every call fails with DISPOSED and providers are disposed once', async () => {
    const lsp = createLsp()
    const ts = staticProvider('ts', { '.ts': 'typescript' })
    const release = lsp.registerProvider(ts)
    await lsp.dispose()
    await lsp.dispose()
    expect(ts.disposed).toBe(1)
    await release()
    expect(ts.disposed).toBe(1)
    await expectRejects(lsp.query({ operation: 'hover', root, path: 'a.ts', position: { line: 0, character: 0 } }), 'DISPOSED')
    expectCode(() => lsp.registerProvider(staticProvider('py', { '.py': 'python' })), 'DISPOSED')
    await expectRejects(lsp.applyEdit({ operations: [] }, { root }), 'DISPOSED')
  })
})
