import { closeSync, existsSync, linkSync, openSync, readSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { LspDocumentSymbol } from '@codeseam/lsp'

import type { IndexDocument } from './decode.js'
import { sha256 } from './store.js'

/*
 * The outlines of a store entry's documents, computed once (`codeseam index`) and kept beside its index (issue 52):
 * the first page of a long references answer outlines up to 200 files to name each reference's enclosing
 * declaration, and computing them from the index (every definition's symbol information read for its kind) was
 * half of that answer's time. An outline from the index depends only on the index (the composition answers from it
 * only for files that still hold what was indexed), and an entry is never rewritten, so neither is its cache.
 *
 * The file: a magic line, the header's length (4 bytes, little-endian), the header (JSON: which code wrote it, the
 * index it belongs to, each document's outline as an offset and a length into the body), the body (each outline as
 * UTF-8 JSON). A document's outline is read alone, when asked.
 */

/**
 * The cache file beside an entry's index, named by the code that writes it ({@link outlineRecipe}): each build of
 * codeseam keeps its own (a build finds the entry's outlines of another build useless, and a file is never replaced).
 */
export async function outlinesFile(directory: string): Promise<string> {
  return nodePath.join(directory, `outlines-${(await outlineRecipe()).slice(0, 16)}.bin`)
}

const magic = Buffer.from('codeseam outlines 1\n')

interface Header {
  /** {@link outlineRecipe} of the code that wrote the cache: another build's outlines may differ, and are not used. */
  readonly recipe: string
  /** The index the outlines are of (its fingerprint, as the scan's table keeps it). */
  readonly index: string
  /** By relative path: the outline's offset in the body and its length, in bytes. */
  readonly documents: Record<string, readonly [number, number]>
}

let recipe: Promise<string> | undefined

/**
 * What a cache's outlines were computed by: a hash of the bytes of the module this code is in (in a built codeseam,
 * the bundle holding the index provider, outlines included; from the sources, this file and the files named here).
 */
export function outlineRecipe(): Promise<string> {
  recipe ??= Promise.all(
    [import.meta.url, new URL('./answers.ts', import.meta.url).href, new URL('./symbols.ts', import.meta.url).href].map((url) =>
      readFile(fileURLToPath(url)).catch(() => Buffer.alloc(0)),
    ),
  ).then((read) => sha256(Buffer.concat(read)))
  return recipe
}

/**
 * Computes the outline of every document `answers` holds in UTF-16 (another encoding needs the file's text, which may
 * have changed since) and writes the cache into the entry's `directory`, unless this build's is there already (it is
 * never replaced: a reader reads its header once and its outlines later). False when nothing was written.
 */
export async function writeOutlineCache(directory: string, answers: OutlineSource, index: string): Promise<boolean> {
  const file = await outlinesFile(directory)
  if (existsSync(file)) return false
  const parts: Buffer[] = []
  const documents: Record<string, readonly [number, number]> = {}
  let offset = 0
  for (const document of answers.index.allDocuments()) {
    if (document.encoding !== 'utf-16' || Object.hasOwn(documents, document.relativePath)) continue
    const bytes = Buffer.from(JSON.stringify(await answers.outline(document)))
    documents[document.relativePath] = [offset, bytes.length]
    parts.push(bytes)
    offset += bytes.length
  }
  const header = Buffer.from(JSON.stringify({ recipe: await outlineRecipe(), index, documents } satisfies Header))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(header.length)
  const temporary = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`
  try {
    await writeFile(temporary, Buffer.concat([magic, length, header, ...parts]))
    // A hard link to the final name fails when a cache is there: the first one written stays.
    linkSync(temporary, file)
    return true
  } catch {
    return false
  } finally {
    await rm(temporary, { force: true }).catch(() => {})
  }
}

/** What computes the outlines to keep: an index's answers (`IndexAnswers`). */
export interface OutlineSource {
  readonly index: { allDocuments(): ReadonlyArray<IndexDocument> }
  outline(document: IndexDocument): Promise<LspDocumentSymbol[]>
}

/** The outlines of one entry's cache, each read from the file when asked. */
export interface OutlineCache {
  /** The outline of a document (relative path), or undefined when the cache has none or it cannot be read. */
  get(relativePath: string): LspDocumentSymbol[] | undefined
}

/**
 * Opens this build's cache in the entry's `directory` when it was written for the index `index` (its fingerprint);
 * undefined when there is none, or it is another's, or it cannot be read.
 */
export async function openOutlineCache(directory: string, index: string): Promise<OutlineCache | undefined> {
  const path = await outlinesFile(directory)
  let head: { readonly header: Header; readonly body: number } | undefined
  try {
    head = readHeader(path)
  } catch {
    return undefined
  }
  if (head === undefined || head.header.recipe !== (await outlineRecipe()) || head.header.index !== index) return undefined
  const { header, body } = head
  return {
    get(relativePath) {
      const at = Object.hasOwn(header.documents, relativePath) ? header.documents[relativePath] : undefined
      if (at === undefined) return undefined
      try {
        const bytes = readAt(path, body + at[0], at[1])
        return bytes === undefined ? undefined : (JSON.parse(bytes.toString('utf8')) as LspDocumentSymbol[])
      } catch {
        return undefined
      }
    },
  }
}

function readHeader(file: string): { readonly header: Header; readonly body: number } | undefined {
  const start = readAt(file, 0, magic.length + 4)
  if (start === undefined || !start.subarray(0, magic.length).equals(magic)) return undefined
  const length = start.readUInt32LE(magic.length)
  const bytes = readAt(file, magic.length + 4, length)
  if (bytes === undefined) return undefined
  const header = JSON.parse(bytes.toString('utf8')) as Header
  if (typeof header.recipe !== 'string' || typeof header.index !== 'string' || typeof header.documents !== 'object') return undefined
  return { header, body: magic.length + 4 + length }
}

/** `length` bytes of `file` at `position`, or undefined when the file is shorter. */
function readAt(file: string, position: number, length: number): Buffer | undefined {
  const fd = openSync(file, 'r')
  try {
    const bytes = Buffer.alloc(length)
    return readSync(fd, bytes, 0, length, position) === length ? bytes : undefined
  } finally {
    closeSync(fd)
  }
}
