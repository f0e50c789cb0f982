import { Effect, Layer } from 'effect'
import { describe, expect, it } from 'vitest'

import { Lsp, LspError, queryEffect, registerProviderScoped } from '../src/index.js'
import { staticProvider } from './providers.js'

describe('Lsp (Effect service)', () => {
  it('a scoped registration is released when its scope closes, and the layer disposes the service', async () => {
    const ts = staticProvider('ts', { '.ts': 'typescript' })
    const program = Effect.gen(function* () {
      const lsp = yield* Lsp
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* registerProviderScoped(ts)
          expect(lsp.providers().map((p) => p.id)).toEqual(['ts'])
          const result = yield* queryEffect({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })
          expect(result.hover?.contents).toBe('ts hover')
        }),
      )
      expect(lsp.providers()).toEqual([])
      return lsp
    })
    const lsp = await Effect.runPromise(program.pipe(Effect.provide(Lsp.layer)))
    expect(ts.disposed).toBe(1)
    await expect(lsp.query({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })).rejects.toMatchObject({
      code: 'DISPOSED',
    })
  })

  it('an invalid registration fails the effect with the registry LspError', async () => {
    const exit = await Effect.runPromiseExit(
      Effect.scoped(registerProviderScoped(staticProvider('', { '.ts': 'typescript' }))).pipe(Effect.provide(Lsp.layer)),
    )
    expect(exit._tag).toBe('Failure')
    const error = await Effect.runPromise(
      Effect.scoped(registerProviderScoped(staticProvider('', { '.ts': 'typescript' }))).pipe(Effect.flip, Effect.provide(Lsp.layer)),
    )
    expect(error).toBeInstanceOf(LspError)
    expect(error.code).toBe('INVALID_PROVIDER')
    expect(Layer.isLayer(Lsp.layer)).toBe(true)
  })
})
