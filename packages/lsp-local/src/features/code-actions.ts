import { createHash } from 'node:crypto'

import { LspError, type LspCodeAction, type LspCommandOutcome, type LspWorkspaceEdit } from '@codeseam/lsp'
import {
  CodeActionRequest,
  CodeActionResolveRequest,
  ExecuteCommandRequest,
  type CodeAction,
  type Command,
} from 'vscode-languageserver-protocol/node'

import type { LanguageServer } from '../server/language-server.js'
import type { Translator } from './translate.js'

interface StoredAction {
  readonly action: CodeAction | Command
  readonly path: string
  readonly version: number
  readonly hash: string
}

/**
 * Code actions handed out by `codeActions`, kept so `resolveCodeAction` can run them later. Ids are derived from the
 * action and the document's content (stable across listings and processes) and bound to the document version they
 * were computed for; the store is bounded.
 */
export class CodeActionStore {
  private readonly actions = new Map<string, StoredAction>()

  constructor(private readonly capacity = 1_000) {}

  /**
   * Stores an action under an id derived from what it is — its file, the document's content, its title and kind,
   * and which of the same-titled actions it is (`occurrence`) — so listing the same document again, in this process
   * or the next, gives it the same id (a terminal user applies by the id another command printed).
   */
  add(action: CodeAction | Command, path: string, version: number, hash: string, occurrence = 0): LspCodeAction {
    const kind = typeof (action as Command).command === 'string' ? 'command' : ((action as CodeAction).kind ?? '')
    const id = `ca-${createHash('sha256').update(`${path}\0${hash}\0${action.title}\0${kind}\0${occurrence}`).digest('hex').slice(0, 20)}`
    this.actions.delete(id)
    this.actions.set(id, { action, path, version, hash })
    while (this.actions.size > this.capacity) {
      const oldest = this.actions.keys().next().value
      if (oldest === undefined) break
      this.actions.delete(oldest)
    }
    const isCommand = typeof (action as Command).command === 'string'
    const codeAction = action as CodeAction
    return {
      id,
      title: action.title,
      ...(isCommand || codeAction.kind === undefined ? {} : { kind: codeAction.kind }),
      ...(isCommand || codeAction.isPreferred === undefined ? {} : { isPreferred: codeAction.isPreferred }),
      ...(isCommand || codeAction.disabled === undefined ? {} : { disabledReason: codeAction.disabled.reason }),
      hasEdit: !isCommand && codeAction.edit !== undefined,
      hasCommand: isCommand || codeAction.command !== undefined,
    }
  }

  get(id: string): StoredAction {
    const stored = this.actions.get(id)
    if (stored === undefined) {
      throw new LspError(
        'NOT_FOUND',
        `code action "${id}" is unknown or expired (the server restarted, or too many actions were listed since); list the actions again`,
      )
    }
    return stored
  }
}

/** Everything an action does: its edit (resolved when the server defers it) and, for commands, what running it did. */
export async function resolveAction(
  server: LanguageServer,
  stored: StoredAction,
  translator: Translator,
  versionOf: (uri: string) => number | null,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ title: string; edit: LspWorkspaceEdit; command?: LspCommandOutcome }> {
  const requestOptions = { timeoutMs: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) }
  let action = stored.action
  if (typeof (action as Command).command === 'string') {
    action = { title: action.title, command: action as Command }
  }
  let codeAction = action as CodeAction
  if (codeAction.disabled !== undefined) {
    throw new LspError('INVALID_ARGUMENT', `code action "${codeAction.title}" is disabled: ${codeAction.disabled.reason}`)
  }
  const canResolve = (() => {
    const provider = server.capabilities.codeActionProvider
    if (typeof provider === 'object' && provider.resolveProvider === true) return true
    // A server that registers code actions dynamically (JDT LS) says it resolves them in the registration.
    return [...server.registrations.values()].some(
      (r) =>
        r.method === CodeActionRequest.method && (r.registerOptions as { resolveProvider?: unknown } | undefined)?.resolveProvider === true,
    )
  })()
  if (codeAction.edit === undefined && canResolve) {
    codeAction = await server.request(CodeActionResolveRequest.type, codeAction, { ...requestOptions, what: 'codeAction/resolve' })
  }
  const edit = translator.workspaceEdit(codeAction.edit, versionOf)
  if (codeAction.command === undefined) return { title: codeAction.title, edit }
  const command = codeAction.command
  const allowed = server.spec.allowedCommands
  if (allowed !== undefined && !allowed.includes(command.command)) {
    throw new LspError(
      'UNSUPPORTED_OPERATION',
      `code action "${codeAction.title}" runs the server command ${command.command}, which codeseam does not run: it runs code, starts a server or writes files without an edit that could be previewed and approved. Commands it runs for this server: ${allowed.join(', ')}`,
      { data: { command: command.command, allowed } },
    )
  }
  const { value, edits } = await server.capturingEdits(() =>
    server.request(
      ExecuteCommandRequest.type,
      { command: command.command, ...(command.arguments === undefined ? {} : { arguments: command.arguments }) },
      { ...requestOptions, what: `workspace/executeCommand ${command.command}` },
    ),
  )
  return {
    title: codeAction.title,
    edit,
    command: {
      title: command.title,
      command: command.command,
      ...(value === undefined || value === null ? {} : { result: value }),
      appliedEdits: edits.map((e) => translator.workspaceEdit(e, versionOf)),
    },
  }
}
