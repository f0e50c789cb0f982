// Go packages under a root, one file each: what the project loader opens so gopls counts every package as a workspace package.
import { open } from 'node:fs/promises'
import * as nodePath from 'node:path'

/** Folders the go command never builds from: `testdata`, `vendor`, and names starting with `_` (`.` is never walked). */
function ignoredByGo(root: string, file: string): boolean {
  const parts = nodePath.relative(root, nodePath.dirname(file)).split(nodePath.sep)
  return parts.some((part) => part === 'testdata' || part === 'vendor' || part.startsWith('_'))
}

/** The package clause of a Go file (`package x`), read from its first 4 KiB; undefined when there is none. */
async function goPackageName(file: string): Promise<string | undefined> {
  let handle: import('node:fs/promises').FileHandle | undefined
  try {
    handle = await open(file, 'r')
    const buffer = Buffer.alloc(4096)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
    return /^[ \t]*package[ \t]+([\p{L}_][\p{L}\p{N}_]*)/mu.exec(head)?.[1]
  } catch {
    return undefined
  } finally {
    await handle?.close()
  }
}

/**
 * One file per Go package under `root`, in walk order: per folder (outside what the go command ignores), its
 * first non-test file, and one `_test.go` file per package clause no file picked so far has (an external
 * `package x_test` is a package of its own; the in-package tests are covered by the package's own file).
 */
export async function goPackageFiles(root: string, files: ReadonlyArray<string>): Promise<string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of files) {
    if (ignoredByGo(root, file)) continue
    const folder = nodePath.dirname(file)
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file])
  }
  const picks: string[] = []
  for (const folderFiles of byFolder.values()) {
    const names = new Set<string>()
    const own = folderFiles.find((file) => !file.endsWith('_test.go'))
    if (own !== undefined) {
      picks.push(own)
      const name = await goPackageName(own)
      if (name !== undefined) names.add(name)
    }
    for (const test of folderFiles.filter((file) => file.endsWith('_test.go'))) {
      const name = await goPackageName(test)
      if (name === undefined || names.has(name)) continue
      names.add(name)
      picks.push(test)
    }
  }
  return picks
}
