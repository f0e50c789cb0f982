import { LspError } from '@codeseam/lsp'
import type { TrustLevel } from '@codeseam/lsp-local'

/**
 * What one MCP session of the daemon asks for, carried in the query of its endpoint URL
 * (`/mcp?root=/repo&trust=trusted&edits=allow`): the stdio proxy writes it from its own flags, and a client
 * speaking Streamable HTTP directly can put it in the URL it is configured with. Read once, when the session
 * initializes; checked against the daemon's ceiling then.
 */

/** How a session may change files: never (`read-only`), after asking its user (`ask`), or without asking (`allow`, `--allow-edits`). */
export type EditMode = 'read-only' | 'ask' | 'allow'

const editRank: Record<EditMode, number> = { 'read-only': 0, ask: 1, allow: 2 }
const trustRank: Record<TrustLevel, number> = { untrusted: 0, trusted: 1 }

/** One session's request. */
export interface SessionParams {
  /** `--root`: when absent the session takes its client's roots (`roots/list`), else `cwd`, else the daemon's roots. */
  readonly roots?: ReadonlyArray<string>
  /** The client's working folder, the fallback root. */
  readonly cwd?: string
  readonly trust: TrustLevel
  readonly edits: EditMode
  /** `--disable-tool` names. */
  readonly disable: ReadonlyArray<string>
}

/** The most a session of a daemon may ask for (a daemon started with `serve` flags); undefined fields set no limit. */
export interface SessionCeiling {
  readonly roots?: ReadonlyArray<string>
  readonly trust?: TrustLevel
  readonly edits?: EditMode
}

/** The query a proxy puts on the daemon's URL. */
export function sessionQuery(params: SessionParams): URLSearchParams {
  const query = new URLSearchParams()
  for (const root of params.roots ?? []) query.append('root', root)
  if (params.cwd !== undefined) query.set('cwd', params.cwd)
  query.set('trust', params.trust)
  query.set('edits', params.edits)
  for (const name of params.disable) query.append('disable-tool', name)
  return query
}

const known = new Set(['root', 'cwd', 'trust', 'edits', 'disable-tool'])

/**
 * Reads a session's request from its URL query; INVALID_ARGUMENT names what is wrong. Trust and edits not
 * given are the ceiling's (what the daemon's operator chose), else untrusted and ask.
 */
export function sessionParamsFrom(query: URLSearchParams, ceiling: SessionCeiling = {}): SessionParams {
  for (const name of query.keys()) {
    if (!known.has(name)) throw new LspError('INVALID_ARGUMENT', `unknown session parameter "${name}" (known: ${[...known].join(', ')})`)
  }
  const trust = query.get('trust') ?? ceiling.trust ?? 'untrusted'
  if (trust !== 'trusted' && trust !== 'untrusted')
    throw new LspError('INVALID_ARGUMENT', `trust must be "trusted" or "untrusted", got "${trust}"`)
  const edits = query.get('edits') ?? ceiling.edits ?? 'ask'
  if (edits !== 'read-only' && edits !== 'ask' && edits !== 'allow') {
    throw new LspError('INVALID_ARGUMENT', `edits must be "read-only", "ask" or "allow", got "${edits}"`)
  }
  const roots = query.getAll('root')
  const cwd = query.get('cwd') ?? undefined
  return {
    ...(roots.length === 0 ? {} : { roots }),
    ...(cwd === undefined ? {} : { cwd }),
    trust,
    edits,
    disable: query.getAll('disable-tool'),
  }
}

/** Refuses a session asking for more than the ceiling allows (UNTRUSTED or APPROVAL_DENIED, saying which flag of `serve` would allow it). */
export function checkCeiling(params: SessionParams, ceiling: SessionCeiling): void {
  if (ceiling.trust !== undefined && trustRank[params.trust] > trustRank[ceiling.trust]) {
    throw new LspError(
      'UNTRUSTED',
      `this codeseam daemon serves untrusted sessions only; the session asked for --trust ${params.trust} (start the daemon with \`codeseam serve --trust trusted\`)`,
    )
  }
  if (ceiling.edits !== undefined && editRank[params.edits] > editRank[ceiling.edits]) {
    const flag = ceiling.edits === 'read-only' ? 'it runs with --read-only' : 'it was started without --allow-edits'
    throw new LspError('APPROVAL_DENIED', `this codeseam daemon does not allow sessions with edits "${params.edits}": ${flag}`)
  }
}
