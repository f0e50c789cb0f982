import { readFileSync, readdirSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, test } from 'vitest'

/*
 * STYLE: no source file over ~300 lines unless its first line says why (`// Size: <reason>`). Long files
 * hide several jobs; splitting them keeps each room's files small enough to read in one go.
 */

const maxLines = 300
const src = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '..', 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = nodePath.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : []
  })
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** The reason on a file's first line (`// Size: why`), if it gives one. */
function sizeReason(text: string): string | undefined {
  return /^\/\/ Size: *(\S.*)$/.exec(text.split('\n', 1)[0] ?? '')?.[1]
}

const files = sourceFiles(src).map((path) => {
  const text = readFileSync(path, 'utf8')
  return { name: nodePath.relative(src, path).split(nodePath.sep).join('/'), lines: lineCount(text), reason: sizeReason(text) }
})

describe('source file size', () => {
  test('finds the sources (a wrong folder would pass vacuously)', () => {
    expect(files.map((f) => f.name)).toContain('host.ts')
    expect(files.length).toBeGreaterThan(20)
  })

  test(`every file in src is at most ${maxLines} lines, or says why on its first line (// Size: …)`, () => {
    const unexplained = files.filter((f) => f.lines > maxLines && f.reason === undefined).map((f) => `${f.name}: ${f.lines} lines`)
    expect(unexplained).toEqual([])
  })
})
