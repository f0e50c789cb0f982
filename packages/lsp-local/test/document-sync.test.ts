import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { contentHash, type LspDocumentSnapshot } from '@codeseam/lsp'
import { TextDocumentSyncKind } from 'vscode-languageserver-protocol/node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { DocumentSync, type DocumentChannel } from '../src/documents/documents.js'
import { statKeyOf } from '../src/documents/stat-key.js'

/** What the server was told, in order. */
type Told = { kind: 'open' | 'change' | 'close'; uri: string; text?: string }

function recordingChannel(told: Told[]): DocumentChannel {
  return {
    syncKind: () => TextDocumentSyncKind.Full,
    open: (item) => told.push({ kind: 'open', uri: item.uri, text: item.text }),
    change: (uri, _version, changes) => told.push({ kind: 'change', uri, text: changes.map((c) => c.text).join('') }),
    close: (uri) => told.push({ kind: 'close', uri }),
    diagnosticsSeq: () => 0,
  }
}

/** The file as the seam reads it: text, hash and the stat key of the read as `revision`. */
function snapshotOf(path: string, text: string): LspDocumentSnapshot {
  return { path, text, hash: contentHash(text), revision: statKeyOf(statSync(path)) } as LspDocumentSnapshot
}

describe('DocumentSync with a snapshot read in the same call', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'document-sync-')))
    file = nodePath.join(dir, 'a.ts')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('uses the snapshot instead of reading the file again', async () => {
    writeFileSync(file, 'on disk\n')
    const told: Told[] = []
    const sync = new DocumentSync(recordingChannel(told), 10)
    const snapshot = snapshotOf(file, 'on disk\n')
    // Same revision, different text: only a sync that trusted the snapshot can send this text.
    const document = await sync.sync(file, 'typescript', {
      snapshot: { ...snapshot, text: 'from the snapshot\n', hash: contentHash('from the snapshot\n') },
    })
    expect(document.text).toBe('from the snapshot\n')
    expect(told).toEqual([{ kind: 'open', uri: document.uri, text: 'from the snapshot\n' }])
  })

  it('never goes back to an older snapshot after a newer version was synced', async () => {
    writeFileSync(file, 'version one\n')
    const old = snapshotOf(file, 'version one\n')
    const told: Told[] = []
    const sync = new DocumentSync(recordingChannel(told), 10)
    // Another query syncs the file after it changed on disk (ctime moves with the write).
    writeFileSync(file, 'version two\n')
    const newer = await sync.sync(file, 'typescript')
    expect(newer.text).toBe('version two\n')
    // The first query, holding the snapshot it read before the change, syncs now: the server keeps version two.
    const after = await sync.sync(file, 'typescript', { snapshot: old })
    expect(after.text).toBe('version two\n')
    expect(told.map((t) => t.text)).toEqual(['version two\n'])
  })
})
