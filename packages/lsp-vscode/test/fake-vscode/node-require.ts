/**
 * vscode-languageclient is CommonJS and loads `require('vscode')` through Node, outside vitest's module
 * graph. This makes that `require` return the very module instance the adapter under test imports, so
 * the language client's converter builds instances of the same classes.
 */
import Module, { createRequire } from 'node:module'

import * as fake from 'vscode'

const virtualId = '/__codeseam__/fake-vscode.cjs'

interface InternalModule {
  _resolveFilename(request: string, parent: unknown, ...rest: unknown[]): string
  _cache: Record<string, unknown>
}

let installed = false

/** Routes Node's `require('vscode')` to the fake. Idempotent. */
export function installFakeVscodeForRequire(): void {
  if (installed) return
  installed = true
  const internal = Module as unknown as InternalModule
  const original = internal._resolveFilename
  internal._resolveFilename = function (request: string, parent: unknown, ...rest: unknown[]) {
    return request === 'vscode' ? virtualId : original.call(this, request, parent, ...rest)
  }
  const module = new Module(virtualId) as Module & { loaded: boolean }
  module.exports = { ...fake, __esModule: true }
  module.loaded = true
  internal._cache[virtualId] = module
}

/** Node's `require`, for loading vscode-languageclient after {@link installFakeVscodeForRequire}. */
export const requireFromTests = createRequire(import.meta.url)
