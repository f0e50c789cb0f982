import {
  displayPath,
  isLspError,
  LspError,
  type LspSpeculatedFile,
  type LspSpeculationRequest,
  type LspSpeculationResult,
} from '@codeseam/lsp'

import type { OpenDocument } from '../documents/documents.js'
import { statKey } from '../documents/stat-key.js'
import type { ServerSlot } from '../pool/slot.js'
import type { LanguageServer } from '../server/language-server.js'
import { languageIdOf } from '../profile/files.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import { fileDiagnostics } from './diagnostics-query.js'
import { acquire, type Serving } from './serving.js'
import { Translator } from './translate.js'

/** One document a speculation touched, and how to give the server its disk view back. */
interface Touched {
  readonly document: OpenDocument
  /** The disk text to send back; undefined: the document was not open before (closed again after). */
  readonly diskText: string | undefined
  readonly pinned: boolean
}

/**
 * A speculative check (RFC 0018): per server, behind the slot's gate held exclusive (no other query runs on
 * it meanwhile) and the documents held (no other sync reaches them), every path is opened, each edited text
 * sent in memory (didChange, or didOpen for a file the edit creates), each other path's version bumped so that
 * its diagnostics too are tied to a version sent after the edit; the diagnostics of those versions are
 * collected; then, in `finally`, every document gets its disk text back (or is closed) before the gate opens.
 */
export async function speculate(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspSpeculationRequest,
  signal: AbortSignal,
): Promise<LspSpeculationResult> {
  const paths = [...new Set(request.paths)]
  if (serving.profile.unavailable !== undefined) {
    return {
      files: paths.map((path) =>
        unavailable(path, `the ${serving.profile.id} language server is unavailable: ${serving.profile.unavailable}`),
      ),
    }
  }
  // Each server whose files are asked for sees the whole edit: a caller's server must see the callee's new text.
  const bySlot = new Map<ServerSlot, string[]>()
  const group = await serving.host.sharingGroup(workspace, request.workspaceRoots, serving.profile)
  for (const path of paths) {
    const slot = serving.host.slotFor(workspace, serving.profile, path, group)
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), path])
  }
  const files = new Map<string, LspSpeculatedFile>()
  for (const [slot, slotPaths] of bySlot) {
    for (const file of await speculateOn(serving, workspace, slot, request, slotPaths, signal)) files.set(file.path, file)
  }
  return { files: paths.map((path) => files.get(path) ?? unavailable(path, 'not checked')) }
}

async function speculateOn(
  serving: Serving,
  workspace: LocalWorkspace,
  slot: ServerSlot,
  request: LspSpeculationRequest,
  paths: ReadonlyArray<string>,
  signal: AbortSignal,
): Promise<LspSpeculatedFile[]> {
  const deadline = Date.now() + serving.host.config.requestTimeoutMs + request.waitMs
  const { server, release } = await acquire(slot, deadline, signal, true)
  const unhold = server.documents.hold()
  const touched: Touched[] = []
  const results = new Map<string, LspSpeculatedFile>()
  try {
    const maxOpen = serving.host.config.limits.maxOpenDocuments
    const edited = new Map(request.documents.map((d) => [d.path, d.text]))
    const limitNote = (what: string) =>
      `not checked: ${what} would open more than limits.maxOpenDocuments (${maxOpen}) documents on the ${serving.profile.id} server; raise limits.maxOpenDocuments in the host config to check it`
    if (edited.size > maxOpen) {
      // Without every edited file in the server, no answer would be of the edit.
      return paths.map((path) => unavailable(path, limitNote('the edit')))
    }
    const wanted = [...edited.keys(), ...paths.filter((path) => !edited.has(path))]
    for (const path of wanted) {
      const languageId = languageIdOf(serving.profile, path)
      if (touched.length >= maxOpen) {
        results.set(path, unavailable(path, limitNote('this file')))
        continue
      }
      const before = server.documents.get(path)
      const text = edited.get(path)
      let document: OpenDocument
      if (text !== undefined && before === undefined && statKey(path) === undefined) {
        // A file the edit creates: an in-memory document only (closed again after), never written.
        document = server.documents.setText(path, languageId, text)
        touched.push({ document, diskText: undefined, pinned: false })
        continue
      }
      try {
        document = await server.documents.sync(path, languageId, { holder: true })
      } catch (error) {
        if (!isLspError(error)) throw error
        if (text !== undefined) throw error
        results.set(path, unavailable(path, `${error.code}: ${error.message}`))
        continue
      }
      touched.push({ document, diskText: before === undefined ? undefined : document.text, pinned: document.pinned })
      // Pinned while the check runs: the open-document LRU must not close a speculative document midway.
      document.pinned = true
    }
    // The edit, then a new version of every other file: diagnostics of that version come after the edit.
    for (const { document } of touched)
      server.documents.setText(document.path, document.languageId, edited.get(document.path) ?? document.text)
    const translator = new Translator(workspace.containment)
    const waitUntil = Math.min(deadline, Date.now() + request.waitMs)
    const checked = await Promise.all(
      touched
        .filter(({ document }) => paths.includes(document.path))
        .map(({ document }) =>
          fileDiagnostics(server, document, translator, {
            deadline: waitUntil,
            quietMs: serving.host.config.diagnosticsQuietMs,
            timeoutMs: Math.max(1, waitUntil - Date.now()),
            signal,
          }).then(
            (file): LspSpeculatedFile => ({
              path: file.path,
              freshness: file.freshness,
              diagnostics: file.diagnostics,
              ...(file.freshness === 'current' ? {} : { note: `the server had not caught up within ${request.waitMs} ms` }),
            }),
            (error: unknown): LspSpeculatedFile => unavailable(document.path, failure(error)),
          ),
        ),
    )
    if (signal.aborted) throw new LspError('CANCELLED', 'the speculative check was cancelled; the servers have the disk text again')
    // A server that crashed midway answered nothing of the edit, whatever it sent before.
    const crashed = server.crashError
    for (const file of checked) results.set(file.path, crashed === undefined ? file : unavailable(file.path, failure(crashed)))
    return paths.map((path) => results.get(path) ?? unavailable(path, `${displayPath(workspace.root, path)} was not checked`))
  } finally {
    restore(server, touched)
    unhold()
    release()
  }
}

/** The server's view of disk again: disk texts sent back, documents opened for the check closed. */
function restore(server: LanguageServer, touched: ReadonlyArray<Touched>): void {
  for (const { document, diskText, pinned } of touched) {
    // Closed meanwhile (the file was deleted on disk): the server reads the disk already.
    if (server.documents.get(document.path) !== document) continue
    if (diskText === undefined) server.documents.close(document.path)
    else {
      server.documents.setText(document.path, document.languageId, diskText)
      document.pinned = pinned
    }
  }
}

function unavailable(path: string, note: string): LspSpeculatedFile {
  return { path, freshness: 'unavailable', diagnostics: [], note }
}

function failure(error: unknown): string {
  return isLspError(error) ? `${error.code}: ${error.message}` : `SERVER_ERROR: ${String(error)}`
}
