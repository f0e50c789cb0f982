import * as nodePath from 'node:path'

import { LspError, type LspCodeAction, type LspProviderRequest, type LspRequestFor, type LspResultFor } from '@codeseam/lsp'
import * as vscode from 'vscode'

import { execute, vsCommands } from '../commands.js'
import { fromTextEdits, fromWorkspaceEdit } from '../shapes/edits.js'
import { fromVsRange, toVsPosition, toVsRange } from '../shapes/positions.js'
import { callCommand, checkPosition, metaFor, warmRead } from '../session.js'
import type { ListedCodeAction, OperationContext } from '../operation-context.js'
import { openAt } from './navigation.js'

const ready = { warm: true, status: 'ready' } as const

/** A thrown command error that is the provider's own "no" (not a timeout or cancellation of ours). */
function refusal(error: unknown): string | undefined {
  if (error instanceof LspError) return undefined
  return error instanceof Error ? error.message : String(error)
}

/** Whether the element at a position can be renamed, with its range and current name. */
export async function prepareRename(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'prepareRename'>>,
): Promise<LspResultFor<'prepareRename'>> {
  const pinned = await openAt(context, request)
  let answer: { range: vscode.Range; placeholder: string } | undefined
  try {
    answer = await context.deadline.run(vsCommands.prepareRename, () =>
      execute.prepareRename(pinned.document.uri, toVsPosition(request.position)),
    )
  } catch (error) {
    const reason = refusal(error)
    if (reason === undefined) throw error
    // VS Code rejects the command with the provider's own words ("You cannot rename this element.").
    return { kind: 'prepareRename', rename: { canRename: false, reason }, meta: metaFor(context, ready, pinned) }
  }
  if (!answer) {
    return {
      kind: 'prepareRename',
      rename: { canRename: false, reason: 'no rename provider can rename the element at this position' },
      meta: metaFor(context, ready, pinned),
    }
  }
  const range = 'range' in answer && answer.range ? answer.range : (answer as unknown as vscode.Range)
  const placeholder = typeof answer.placeholder === 'string' ? answer.placeholder : pinned.document.getText(range)
  return {
    kind: 'prepareRename',
    rename: { canRename: true, range: fromVsRange(range), placeholder },
    meta: metaFor(context, ready, pinned),
  }
}

/** The edit a rename would make (nothing is applied). */
export async function rename(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'rename'>>,
): Promise<LspResultFor<'rename'>> {
  if (typeof request.newName !== 'string' || request.newName.trim() === '') {
    throw new LspError('INVALID_ARGUMENT', 'newName is empty: give the new name of the symbol')
  }
  const pinned = await openAt(context, request)
  let answer: vscode.WorkspaceEdit | undefined
  try {
    answer = await context.deadline.run(vsCommands.rename, () =>
      execute.rename(pinned.document.uri, toVsPosition(request.position), request.newName),
    )
  } catch (error) {
    const reason = refusal(error)
    if (reason === undefined) throw error
    throw new LspError('INVALID_ARGUMENT', `VS Code cannot rename here: ${reason}`, { cause: error })
  }
  return { kind: 'workspaceEdit', edit: fromWorkspaceEdit(answer, context.root), meta: metaFor(context, ready, pinned) }
}

/** Formatting options: the caller's, else the editor settings VS Code would use for this document. */
function formattingOptions(document: vscode.TextDocument, options: LspRequestFor<'format'>['options']): vscode.FormattingOptions {
  if (options) return { tabSize: options.tabSize, insertSpaces: options.insertSpaces }
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document)
  if (editor && typeof editor.options.tabSize === 'number' && typeof editor.options.insertSpaces === 'boolean') {
    return { tabSize: editor.options.tabSize, insertSpaces: editor.options.insertSpaces }
  }
  const settings = vscode.workspace.getConfiguration('editor', document.uri)
  return { tabSize: settings.get<number>('tabSize', 4), insertSpaces: settings.get<boolean>('insertSpaces', true) }
}

/** The edit formatting the document (or a range of it) would make, against the buffer's version. */
export async function format(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'format'>>,
): Promise<LspResultFor<'format'>> {
  const pinned = await openAt(context, request)
  const options = formattingOptions(pinned.document, request.options)
  let edits: vscode.TextEdit[] | undefined
  if (request.range) {
    checkPosition(pinned.document, request.range.start)
    checkPosition(pinned.document, request.range.end)
    const range = toVsRange(request.range)
    edits = await callCommand(context, vsCommands.formatRange, () => execute.formatRange(pinned.document.uri, range, options))
  } else {
    edits = await callCommand(context, vsCommands.formatDocument, () => execute.formatDocument(pinned.document.uri, options))
  }
  return { kind: 'workspaceEdit', edit: fromTextEdits(edits, pinned.document), meta: metaFor(context, ready, pinned) }
}

// --- code actions -------------------------------------------------------------------------------------------

interface ActionKey {
  readonly p: string
  readonly v: number
  readonly r: readonly [number, number, number, number]
  readonly k?: string
  readonly i: number
  readonly t: string
}

function encodeActionId(key: ActionKey): string {
  return `vscode-action:${Buffer.from(JSON.stringify(key), 'utf8').toString('base64url')}`
}

function decodeActionId(id: string): ActionKey {
  const prefix = 'vscode-action:'
  try {
    if (!id.startsWith(prefix)) throw new Error('foreign id')
    const key = JSON.parse(Buffer.from(id.slice(prefix.length), 'base64url').toString('utf8')) as ActionKey
    if (
      typeof key.p !== 'string' ||
      typeof key.v !== 'number' ||
      !Array.isArray(key.r) ||
      typeof key.i !== 'number' ||
      typeof key.t !== 'string'
    ) {
      throw new Error('bad shape')
    }
    return key
  } catch {
    throw new LspError(
      'INVALID_ARGUMENT',
      `"${id}" is not a code action id from this provider; list code actions first and pass one of their ids`,
    )
  }
}

function isCommand(value: vscode.CodeAction | vscode.Command): value is vscode.Command {
  return typeof (value as { command?: unknown }).command === 'string'
}

function kindOf(action: vscode.CodeAction | vscode.Command): string | undefined {
  return isCommand(action) ? undefined : action.kind?.value
}

function matchesOnly(kind: string | undefined, only: ReadonlyArray<string> | undefined): boolean {
  if (!only || only.length === 0) return true
  return kind !== undefined && only.some((prefix) => kind === prefix || kind.startsWith(`${prefix}.`))
}

/**
 * Code actions for a range. VS Code's command takes one kind filter, so several `only` prefixes are
 * filtered here. The first `codeActionResolveCount` actions are resolved so `hasEdit` is true to life.
 */
export async function codeActions(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'codeActions'>>,
): Promise<LspResultFor<'codeActions'>> {
  const pinned = await openAt(context, request)
  checkPosition(pinned.document, request.range.start)
  checkPosition(pinned.document, request.range.end)
  const range = toVsRange(request.range)
  const kind = request.only?.length === 1 ? request.only[0] : undefined
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.codeActions,
    () => execute.codeActions(pinned.document.uri, range, kind, context.codeActionResolveCount),
    () => false, // no actions is an ordinary answer
  )
  const path = nodePath.normalize(pinned.document.uri.fsPath)
  const actions: LspCodeAction[] = []
  ;(outcome.value ?? []).forEach((action, index) => {
    const actionKind = kindOf(action)
    if (!matchesOnly(actionKind, request.only)) return
    const key: ActionKey = {
      p: path,
      v: pinned.version,
      r: [request.range.start.line, request.range.start.character, request.range.end.line, request.range.end.character],
      ...(kind !== undefined ? { k: kind } : {}),
      i: index,
      t: action.title,
    }
    const id = encodeActionId(key)
    const listed: ListedCodeAction = { path, version: pinned.version, range, kind, index, action }
    context.codeActions.set(id, listed)
    const codeAction = isCommand(action) ? undefined : action
    actions.push({
      id,
      title: action.title,
      ...(actionKind !== undefined ? { kind: actionKind } : {}),
      ...(codeAction?.isPreferred !== undefined ? { isPreferred: codeAction.isPreferred } : {}),
      ...(codeAction?.disabled ? { disabledReason: codeAction.disabled.reason } : {}),
      hasEdit: codeAction?.edit !== undefined,
      hasCommand: isCommand(action) || codeAction?.command !== undefined,
    })
  })
  return { kind: 'codeActions', actions, meta: metaFor(context, outcome, pinned) }
}

/**
 * The full effect of a listed action: its edit. The action must still belong to the buffer's current
 * version (STALE_VERSION otherwise). Commands are never run here: in VS Code a command executes inside its
 * extension and writes straight into the buffers, so it cannot be previewed or captured; a command-only
 * action is UNSUPPORTED_OPERATION, and an action with both an edit and a command yields the edit alone.
 */
export async function resolveCodeAction(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'resolveCodeAction'>>,
): Promise<LspResultFor<'resolveCodeAction'>> {
  const key = decodeActionId(request.actionId)
  if (nodePath.normalize(key.p) !== nodePath.normalize(request.path)) {
    throw new LspError('INVALID_ARGUMENT', `code action "${key.t}" belongs to ${key.p}, not ${request.path}`)
  }
  const pinned = await openAt(context, { path: key.p })
  if (pinned.version !== key.v) {
    throw new LspError(
      'STALE_VERSION',
      `code action "${key.t}" was listed for version ${key.v} of ${key.p}, which is now at version ${pinned.version}; list code actions again`,
      {
        data: { path: key.p, listedVersion: key.v, currentVersion: pinned.version },
      },
    )
  }
  let action = context.codeActions.get(request.actionId)?.action
  if (action === undefined || (!isCommand(action) && action.edit === undefined)) {
    // Not remembered, or listed beyond the resolve count: list again, resolving up to this action.
    const range = new vscode.Range(key.r[0], key.r[1], key.r[2], key.r[3])
    const fresh = await callCommand(context, vsCommands.codeActions, () =>
      execute.codeActions(pinned.document.uri, range, key.k, key.i + 1),
    )
    const candidates = fresh ?? []
    action = candidates[key.i]?.title === key.t ? candidates[key.i] : candidates.find((a) => a.title === key.t)
  }
  if (action === undefined) {
    throw new LspError('NOT_FOUND', `code action "${key.t}" is no longer offered at ${key.p}; list code actions again`)
  }
  if (isCommand(action) || action.edit === undefined) {
    const command = isCommand(action) ? action.command : action.command?.command
    throw new LspError(
      'UNSUPPORTED_OPERATION',
      `code action "${key.t}" works by running the VS Code command "${command ?? '?'}", which applies its changes directly in VS Code and cannot be previewed; run it from VS Code's light bulb instead`,
      { data: { command } },
    )
  }
  if (action.disabled) {
    throw new LspError('INVALID_ARGUMENT', `code action "${key.t}" is disabled: ${action.disabled.reason}`)
  }
  return {
    kind: 'codeActionResolution',
    title: action.title,
    edit: fromWorkspaceEdit(action.edit, context.root),
    meta: metaFor(context, ready, pinned),
  }
}
