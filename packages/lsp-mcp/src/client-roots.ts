import type { Server } from '@modelcontextprotocol/sdk/server/index.js'

import type { CodeseamSession } from './session.js'

// Placeholder until the client-roots work lands: the fallback only.
export function followClientRoots(options: {
  server: Server
  session: CodeseamSession
  fallback: ReadonlyArray<string>
  log?: (line: string) => void
}): { ready: Promise<void>; dispose(): void } {
  const ready = options.session.setRoots(options.fallback).then(
    () => {},
    (error: unknown) => options.log?.(`the roots could not be opened: ${String(error)}`),
  )
  return { ready, dispose() {} }
}
