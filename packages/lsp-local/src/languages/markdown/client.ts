import { readdir, readFile, stat } from 'node:fs/promises'

import { containPath, isLspError, pathToUri, uriToPath } from '@codeseam/lsp'
import markdownIt, { type Token } from 'markdown-it'
import { ErrorCodes, RequestType, ResponseError, type MessageConnection } from 'vscode-languageserver-protocol/node'

import type { ClientRequestContext } from '../record.js'

/*
 * VS Code's Markdown server parses nothing and reads no file itself: it asks its client, as VS Code's Markdown
 * extension answers it (`markdown/parse` for markdown-it tokens, `markdown/fs/*` for the files a link names,
 * `markdown/findMarkdownFilesInWorkspace` for the workspace's documents). codeseam answers the same requests for
 * the workspace root only: a path that resolves outside it is never read, listed or stat'ed.
 */

interface FileStat {
  readonly isDirectory: boolean
}

const parseRequest = new RequestType<{ uri: string; text?: string }, Token[], void>('markdown/parse')
const readFileRequest = new RequestType<{ uri: string }, number[], void>('markdown/fs/readFile')
const statRequest = new RequestType<{ uri: string }, FileStat | null, void>('markdown/fs/stat')
const readDirectoryRequest = new RequestType<{ uri: string }, Array<[string, FileStat]>, void>('markdown/fs/readDirectory')
const findFilesRequest = new RequestType<Record<string, never>, string[], void>('markdown/findMarkdownFilesInWorkspace')
// The server watches the files its links name; codeseam re-syncs every document before each query, so a watcher
// has nothing to add (accepted and never fired).
const watcherCreateRequest = new RequestType<{ id: number; uri: string }, null, void>('markdown/fs/watcher/create')
const watcherDeleteRequest = new RequestType<{ id: number }, null, void>('markdown/fs/watcher/delete')

/** A file the server may read through `markdown/fs/readFile` (a link target is previewed, a document indexed). */
const maxReadBytes = 4 * 1024 * 1024

/**
 * The parser VS Code's Markdown extension uses (markdown-it, HTML allowed). A YAML front matter block is blanked
 * first, line for line, as VS Code's front-matter plugin keeps it out of the document's headers.
 */
const markdown = new markdownIt({ html: true })
export function markdownTokens(text: string): Token[] {
  return markdown.parse(withoutFrontMatter(text), {})
}

function withoutFrontMatter(text: string): string {
  if (!/^---\r?\n/.test(text)) return text
  const lines = text.split('\n')
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\r?$/.test(line))
  if (end < 0) return text
  return lines.map((line, index) => (index <= end ? '' : line)).join('\n')
}

/** Answers the Markdown server's client requests on `connection`. */
export function serveMarkdownClient(connection: MessageConnection, context: ClientRequestContext): void {
  /** The contained path of a file URI, or undefined when it is not one or resolves outside the workspace. */
  const inside = (uri: string): string | undefined => {
    const path = uriToPath(uri)
    if (path === undefined) return undefined
    try {
      return containPath(context.workspaceRoot, path).path
    } catch (error) {
      if (isLspError(error)) return undefined
      throw error
    }
  }
  const refused = (uri: string) =>
    new ResponseError(ErrorCodes.InvalidRequest, `${uri} is outside the workspace root ${context.workspaceRoot}: codeseam did not read it`)

  connection.onRequest(parseRequest, async ({ uri, text }) => {
    if (text !== undefined) return markdownTokens(text)
    const path = inside(uri)
    if (path === undefined) return refused(uri)
    return markdownTokens(context.openText(path) ?? (await readFile(path, 'utf8')))
  })
  connection.onRequest(readFileRequest, async ({ uri }) => {
    const path = inside(uri)
    if (path === undefined) return refused(uri)
    const open = context.openText(path)
    if (open !== undefined) return Array.from(Buffer.from(open, 'utf8'))
    if ((await stat(path)).size > maxReadBytes) return new ResponseError(ErrorCodes.InvalidRequest, `${uri} is over ${maxReadBytes} bytes`)
    return Array.from(await readFile(path))
  })
  // A link out of the workspace cannot be checked without looking outside it: it is answered as existing, so it
  // is never reported broken (the server says nothing of it, rather than something codeseam does not know).
  connection.onRequest(statRequest, async ({ uri }) => {
    const path = inside(uri)
    if (path === undefined) return uriToPath(uri) === undefined ? null : { isDirectory: false }
    try {
      return { isDirectory: (await stat(path)).isDirectory() }
    } catch {
      return null
    }
  })
  connection.onRequest(readDirectoryRequest, async ({ uri }) => {
    const path = inside(uri)
    if (path === undefined) return []
    try {
      const entries = await readdir(path, { withFileTypes: true })
      return entries.map((entry): [string, FileStat] => [entry.name, { isDirectory: entry.isDirectory() }])
    } catch {
      return []
    }
  })
  connection.onRequest(findFilesRequest, async () => (await context.listFiles(context.workspaceRoot)).map((file) => pathToUri(file)))
  connection.onRequest(watcherCreateRequest, () => null)
  connection.onRequest(watcherDeleteRequest, () => null)
}
