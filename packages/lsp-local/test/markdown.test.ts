import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { PassThrough } from 'node:stream'

import { pathToUri, resolveTarget, uriToPath, type LspService } from '@codeseam/lsp'
import markdownIt from 'markdown-it'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createMessageConnection,
  DefinitionRequest,
  ReferencesRequest,
  RequestType,
  StreamMessageReader,
  StreamMessageWriter,
  WorkspaceSymbolRequest,
  type Location,
  type LocationLink,
  type MessageConnection,
} from 'vscode-languageserver-protocol/node'

import { profileOf } from '../src/languages/index.js'
import { markdownRecord } from '../src/languages/markdown/record.js'
import { editorServicesOf } from '../src/workspace/editor-services.js'
import { markdownTokens, serveMarkdownClient } from '../src/languages/markdown/client.js'
import { BareServer, startSeamAndBare } from './config-bare-server.js'
import { copyFixture, positionOf } from './helpers.js'

/*
 * The Markdown record (issue 30) beyond outline and diagnostics (config-languages.test.ts compares those with the
 * bare server): links followed to their header, a header's references and the workspace's headers, each equal to
 * what the bare server answers on the same files; front matter kept out of the outline; and the client requests
 * codeseam answers for the server, held to the workspace root.
 */

const located = await markdownRecord.locate()

describe.skipIf(!located.found)('Markdown through the seam against its bare server', () => {
  let copy: { root: string; remove: () => void }
  let lsp: LspService
  let bare: BareServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    copy = copyFixture(markdownRecord.fixture ?? '(markdown has no fixture)')
    ;({ lsp, bare, stop } = await startSeamAndBare(markdownRecord, copy.root))
    for (const file of ['README.md', 'docs/guide.md', 'docs/changes.md']) await bare.open(nodePath.join(copy.root, file), 'markdown')
  }, 120_000)
  afterAll(async () => {
    await stop?.()
    copy?.remove()
  })

  const key = (path: string, line: number) => `${nodePath.relative(copy.root, path)}:${line + 1}`
  const bareKey = (l: Location | LocationLink) =>
    'targetUri' in l
      ? key(uriToPath(l.targetUri) ?? '', l.targetSelectionRange.start.line)
      : key(uriToPath(l.uri) ?? '', l.range.start.line)

  test.each([
    ['README.md', '[setup guide](docs/guide.md#setup)', 'docs/guide', 'docs/guide.md:8'],
    ['README.md', '[API notes](#api-notes)', '#api', 'README.md:5'],
    ['docs/guide.md', '[overview](../README.md#widget-service)', '../README', 'README.md:1'],
    ['docs/changes.md', '[the guide](guide.md#running)', 'guide.md', 'docs/guide.md:12'],
  ])('%s: the link %s goes where the bare server says', async (file, text, inLink, expected) => {
    const position = positionOf(copy.root, file, text, { offset: text.indexOf(inLink) + 1 })
    const path = nodePath.join(copy.root, file)
    const seam = await lsp.query({ operation: 'definition', root: copy.root, path, position })
    const answer = (await bare.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: pathToUri(path) }, position })) ?? []
    const bareLocations = (Array.isArray(answer) ? answer : [answer]).map(bareKey)
    expect(seam.locations.map((l) => key(l.path, l.range.start.line))).toEqual(bareLocations)
    expect(bareLocations, 'the expected target (the fixture says where the header is)').toEqual([expected])
  })

  test("a header's references are every link to it, in every file, as the bare server finds them", async () => {
    const path = nodePath.join(copy.root, 'docs/guide.md')
    const position = positionOf(copy.root, 'docs/guide.md', '## Setup', { offset: 4 })
    const seam = await lsp.query({ operation: 'references', root: copy.root, path, position })
    const answer = await bare.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: pathToUri(path) },
      position,
      context: { includeDeclaration: true },
    })
    const seamKeys = seam.locations.map((l) => key(l.path, l.range.start.line)).sort()
    expect(seamKeys).toEqual((answer ?? []).map(bareKey).sort())
    // The link from README.md is found though README.md was never opened through the seam.
    expect(seamKeys).toEqual(expect.arrayContaining(['README.md:3', 'docs/guide.md:14']))
  })

  test('a workspace symbol search leaves the headers out (the server has them; codeseam does not ask it)', async () => {
    const answer = (await bare.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'Setup' })) ?? []
    expect(answer.map((s) => s.name)).toContain('## Setup')
    const seam = await lsp.query({ operation: 'workspaceSymbols', root: copy.root, query: 'Setup' })
    expect(seam.symbols).toEqual([])
    expect(lsp.operationsFor(nodePath.join(copy.root, 'README.md'))).not.toContain('workspaceSymbols')
  })

  test('headers are named without their # markers, at every depth, and a target by that name lands on the header', async () => {
    const path = nodePath.join(copy.root, 'docs/guide.md')
    const outline = await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
    const names = (symbols: typeof outline.symbols): unknown[] => symbols.map((s) => [s.name, names(s.children)])
    expect(names(outline.symbols)).toEqual([
      [
        'Guide',
        [
          ['Setup', []],
          ['Running', []],
        ],
      ],
    ])
    // The bare server says `## Setup`: the record's naming, not the server, drops the markers.
    const bareOutline = await bare.outline(path)
    expect(bareOutline.outline[0]?.children.map((c) => c.name)).toEqual(['## Setup', '## Running'])
    for (const symbol of ['Setup', 'Guide.Setup']) {
      const target = await resolveTarget(lsp, { path, symbol })
      expect(target.position.line, symbol).toBe(positionOf(copy.root, 'docs/guide.md', '## Setup').line)
      expect(target.symbol?.qualifiedName).toBe('Guide.Setup')
    }
  })

  test('front matter is not a header: the outline starts at the first real header', async () => {
    const path = nodePath.join(copy.root, 'docs/guide.md')
    const outline = await lsp.query({ operation: 'documentSymbols', root: copy.root, path })
    expect(outline.symbols.map((s) => s.name)).toEqual(['Guide'])
    expect(outline.symbols[0]?.selectionRange.start.line).toBe(positionOf(copy.root, 'docs/guide.md', '# Guide').line)
    // Parsed as plain Markdown, its closing `---` would make `layout: page` a heading.
    const plain = new markdownIt({ html: true }).parse('---\ntitle: Guide\nlayout: page\n---\n\n# Guide\n', {})
    expect(plain.filter((t) => t.type === 'heading_open').length).toBe(2)
    expect(markdownTokens('---\ntitle: Guide\nlayout: page\n---\n\n# Guide\n').filter((t) => t.type === 'heading_open').length).toBe(1)
  })

  test('a link out of the workspace is not checked: never reported broken, and its file never read', async () => {
    const path = nodePath.join(copy.root, 'outside.md')
    const diagnostics = await lsp.query({ operation: 'diagnostics', root: copy.root, path })
    expect(diagnostics.files.flatMap((f) => f.diagnostics)).toEqual([])
    // The bare server, reading anything, reports the missing ../LICENSE.
    const bareDiagnostics = await bare.open(path, 'markdown')
    expect(bareDiagnostics.map((d) => d.message)).toEqual([expect.stringContaining('LICENSE')])
  })
})

/** codeseam's client side, spoken to over a real JSON-RPC pipe as the Markdown server speaks to it. */
describe('the Markdown client requests stay in the workspace root', () => {
  let copy: { root: string; remove: () => void }
  let server: MessageConnection
  let client: MessageConnection
  beforeAll(() => {
    copy = copyFixture(markdownRecord.fixture ?? '(markdown has no fixture)')
    // Beside the workspace: a secret, a link to it from inside, a folder that is never listed.
    writeFileSync(nodePath.join(copy.root, '..', `${nodePath.basename(copy.root)}-secret.md`), '# secret\n')
    symlinkSync(nodePath.join(copy.root, '..', `${nodePath.basename(copy.root)}-secret.md`), nodePath.join(copy.root, 'linked.md'))
    mkdirSync(nodePath.join(copy.root, 'node_modules', 'pkg'), { recursive: true })
    writeFileSync(nodePath.join(copy.root, 'node_modules', 'pkg', 'README.md'), '# dependency\n')
    const toServer = new PassThrough()
    const toClient = new PassThrough()
    client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer))
    server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient))
    // The file listing the host gives the server: the record's profile, through the same function the pool uses.
    const services = editorServicesOf(profileOf(markdownRecord, { found: true, command: 'node' }))
    if (services === undefined) throw new Error('the Markdown record asks for no editor services')
    serveMarkdownClient(client, {
      workspaceRoot: copy.root,
      openText: () => undefined,
      listFiles: (root) => services.listFiles(root),
      status: () => {},
    })
    client.listen()
    server.listen()
  })
  afterAll(() => {
    server.dispose()
    client.dispose()
    copy.remove()
  })

  const readFile = new RequestType<{ uri: string }, number[], void>('markdown/fs/readFile')
  const stat = new RequestType<{ uri: string }, { isDirectory: boolean } | null, void>('markdown/fs/stat')
  const parse = new RequestType<{ uri: string; text?: string }, Array<{ type: string }>, void>('markdown/parse')
  const find = new RequestType<Record<string, never>, string[], void>('markdown/findMarkdownFilesInWorkspace')
  const secret = () => nodePath.join(copy.root, '..', `${nodePath.basename(copy.root)}-secret.md`)

  test('a file inside is read; one outside, or linked from inside to outside, is refused', async () => {
    const inside = await server.sendRequest(readFile, { uri: pathToUri(nodePath.join(copy.root, 'README.md')) })
    expect(Buffer.from(inside).toString('utf8')).toMatch(/^# Widget service/)
    await expect(server.sendRequest(readFile, { uri: pathToUri(secret()) })).rejects.toThrow(/outside the workspace root/)
    await expect(server.sendRequest(readFile, { uri: pathToUri(nodePath.join(copy.root, 'linked.md')) })).rejects.toThrow(
      /outside the workspace root/,
    )
    await expect(server.sendRequest(parse, { uri: pathToUri(secret()) })).rejects.toThrow(/outside the workspace root/)
  })

  test('stat: a missing file inside is missing; anything outside is answered unchecked, without looking', async () => {
    expect(await server.sendRequest(stat, { uri: pathToUri(nodePath.join(copy.root, 'docs')) })).toEqual({ isDirectory: true })
    expect(await server.sendRequest(stat, { uri: pathToUri(nodePath.join(copy.root, 'missing.md')) })).toBeNull()
    expect(await server.sendRequest(stat, { uri: pathToUri('/definitely/not/here.md') })).toEqual({ isDirectory: false })
  })

  test("the workspace's Markdown files are listed without dependencies or anything outside", async () => {
    const files = (await server.sendRequest(find, {})).map((uri) => nodePath.relative(copy.root, uriToPath(uri) ?? '')).sort()
    expect(files).toEqual(['README.md', 'broken.md', 'docs/changes.md', 'docs/guide.md', 'outside.md'])
  })
})
