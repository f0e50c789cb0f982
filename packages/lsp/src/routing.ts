import { closeSync, openSync, readSync, realpathSync } from 'node:fs'
import * as nodePath from 'node:path'

import { extensionOf, isWithin } from './paths.js'

/*
 * Which provider serves a file (RFC 0020): its exact name (`Dockerfile`, `.bashrc`, `tsconfig.json`) first, then
 * its extension, then — for a file with no extension and no name match — the interpreter its `#!` line names.
 * Names, extensions and interpreters are each an exclusive reservation of one provider.
 */

/** How a file was matched to its provider. */
export type RouteKind = 'fileName' | 'extension' | 'interpreter'

/**
 * The interpreter a `#!` line names: the program's base name (`#!/bin/bash` → `bash`), or for `env` the first
 * argument that is neither an option nor an assignment (`#!/usr/bin/env -S node --flag` → `node`). Undefined for a
 * line that is not a `#!` line.
 */
export function interpreterOf(firstLine: string): string | undefined {
  if (!firstLine.startsWith('#!')) return undefined
  const words = firstLine
    .slice(2)
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
  const program = words[0] === undefined ? undefined : nodePath.basename(words[0])
  if (program !== 'env') return program
  return words.slice(1).find((w) => !w.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
}

/** The names an interpreter is looked up by: itself, then without a version (`python3.11` → `python3`, `python`). */
export function interpreterNames(interpreter: string): string[] {
  const names = [interpreter]
  const minor = interpreter.replace(/\.\d+$/, '')
  if (minor !== interpreter) names.push(minor)
  const major = minor.replace(/\d+$/, '')
  if (major !== minor && major !== '') names.push(major)
  return names
}

/** How many bytes of a file are read for its `#!` line. */
export const firstLineBytes = 256

/**
 * The first line of a file inside one of `roots` (its real path checked, so a link out of the workspace is never
 * read), at most {@link firstLineBytes}; undefined when it cannot be read or is outside every root.
 */
export function firstLineIn(path: string, roots: Iterable<string>): string | undefined {
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    return undefined
  }
  if (![...roots].some((root) => isWithin(root, real))) return undefined
  let fd: number | undefined
  try {
    fd = openSync(real, 'r')
    const buffer = Buffer.alloc(firstLineBytes)
    const read = readSync(fd, buffer, 0, firstLineBytes, 0)
    const text = buffer.subarray(0, read).toString('utf8')
    const end = text.search(/\r?\n/)
    return end === -1 ? text : text.slice(0, end)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** One provider's claims, normalized: extension, exact file name and interpreter → language id. */
export interface RouteClaims {
  readonly extensions: Readonly<Record<string, string>>
  readonly fileNames: Readonly<Record<string, string>>
  readonly interpreters: Readonly<Record<string, string>>
}

/** The owners of every claim, and the lookup a file goes through. */
export class Routes<Owner extends { readonly info: RouteClaims }> {
  readonly extensions = new Map<string, Owner>()
  readonly fileNames = new Map<string, Owner>()
  readonly interpreters = new Map<string, Owner>()

  /** The claim of `claims` another owner already holds, if any (what registration refuses). */
  conflict(claims: RouteClaims): { kind: RouteKind; key: string; owner: Owner } | undefined {
    for (const [kind, map, keys] of [
      ['extension', this.extensions, Object.keys(claims.extensions)],
      ['fileName', this.fileNames, Object.keys(claims.fileNames)],
      ['interpreter', this.interpreters, Object.keys(claims.interpreters)],
    ] as const) {
      for (const key of keys) {
        const owner = map.get(key)
        if (owner !== undefined) return { kind, key, owner }
      }
    }
    return undefined
  }

  add(owner: Owner): void {
    for (const key of Object.keys(owner.info.extensions)) this.extensions.set(key, owner)
    for (const key of Object.keys(owner.info.fileNames)) this.fileNames.set(key, owner)
    for (const key of Object.keys(owner.info.interpreters)) this.interpreters.set(key, owner)
  }

  remove(owner: Owner): void {
    for (const map of [this.extensions, this.fileNames, this.interpreters]) {
      for (const [key, held] of map) if (held === owner) map.delete(key)
    }
  }

  clear(): void {
    this.extensions.clear()
    this.fileNames.clear()
    this.interpreters.clear()
  }

  /**
   * The owner of a file: by exact name, then extension, then (no extension) the `#!` line `firstLine` reads —
   * called only when the first two miss, so a file is read only when nothing else routes it.
   */
  ownerOf(path: string, firstLine: () => string | undefined): { owner: Owner; languageId: string; by: RouteKind } | undefined {
    const name = nodePath.basename(path)
    const byName = this.fileNames.get(name)
    if (byName !== undefined) return { owner: byName, languageId: byName.info.fileNames[name] ?? '', by: 'fileName' }
    const extension = extensionOf(path)
    if (extension !== undefined) {
      const byExtension = this.extensions.get(extension)
      return byExtension === undefined
        ? undefined
        : { owner: byExtension, languageId: byExtension.info.extensions[extension] ?? '', by: 'extension' }
    }
    if (this.interpreters.size === 0) return undefined
    const line = firstLine()
    const interpreter = line === undefined ? undefined : interpreterOf(line)
    if (interpreter === undefined) return undefined
    for (const candidate of interpreterNames(interpreter)) {
      const byInterpreter = this.interpreters.get(candidate)
      if (byInterpreter !== undefined) {
        return { owner: byInterpreter, languageId: byInterpreter.info.interpreters[candidate] ?? '', by: 'interpreter' }
      }
    }
    return undefined
  }
}
