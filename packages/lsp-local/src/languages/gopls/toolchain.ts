// The machine's own Go toolchain (asked once, outside any workspace) and the go.work codeseam writes for a
// root of several modules.
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { toolchainLines } from '../lookup.js'
import type { LibraryRoot } from '../record.js'

/** What the machine's own go says (`go env`, outside any workspace, GOTOOLCHAIN=local), asked once. */
interface GoToolchain {
  readonly goroot?: string
  readonly modcache?: string
  /** `1.26` of go1.26.8, for a go.work codeseam writes. */
  readonly version?: string
}
let goEnv: Promise<GoToolchain> | undefined

export function goToolchain(): Promise<GoToolchain> {
  goEnv ??= toolchainLines('go', ['env', 'GOROOT', 'GOMODCACHE', 'GOVERSION'], { GOTOOLCHAIN: 'local', GOFLAGS: '' }).then((lines) => {
    const [goroot, modcache, goversion] = lines ?? []
    const version = /^go(\d+\.\d+)/.exec(goversion ?? '')?.[1]
    return {
      ...(goroot === undefined ? {} : { goroot }),
      ...(modcache === undefined ? {} : { modcache }),
      ...(version === undefined ? {} : { version }),
    }
  })
  return goEnv
}

/** GOROOT's sources and the module cache. */
export async function goLibraryRoots(): Promise<ReadonlyArray<LibraryRoot>> {
  const { goroot, modcache } = await goToolchain()
  return [
    ...(goroot === undefined ? [] : [{ path: nodePath.join(goroot, 'src'), library: 'Go standard library' }]),
    ...(modcache === undefined ? [] : [{ path: modcache, library: 'Go module cache' }]),
  ]
}

/**
 * A root holding several modules and no go.work of its own: gopls sees one build per opened file, and a
 * module's references miss the others. codeseam writes a go.work listing every module (outside the workspace,
 * in its own temporary folder) and points GOWORK at it, so one build covers them all from the first question.
 */
export async function goWorkEnvironment(
  root: string,
  find: (names: ReadonlyArray<string>) => Promise<ReadonlyArray<string>>,
): Promise<Readonly<Record<string, string>>> {
  const found = await find(['go.mod', 'go.work'])
  if (found.some((file) => nodePath.basename(file) === 'go.work' && nodePath.dirname(file) === root)) return {}
  const modules = new Map<string, string>()
  // The go command ignores testdata, vendor and folders starting with _ or .
  const ignored = (file: string) =>
    nodePath
      .relative(root, file)
      .split(nodePath.sep)
      .some((part) => part === 'testdata' || part === 'vendor' || part.startsWith('_'))
  for (const file of found.filter((f) => nodePath.basename(f) === 'go.mod' && !ignored(f)).sort()) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      continue
    }
    const name = /^module\s+(\S+)/m.exec(text)?.[1]
    // Two modules with one path cannot share a go.work: the first (shallowest) is kept.
    if (name !== undefined && !modules.has(name)) modules.set(name, nodePath.dirname(file))
  }
  if (modules.size < 2) return {}
  const version = (await goToolchain()).version ?? '1.22'
  const folder = nodePath.join(
    tmpdir(),
    `codeseam-gowork-${process.getuid?.() ?? 0}`,
    createHash('sha256').update(root).digest('hex').slice(0, 16),
  )
  await mkdir(folder, { recursive: true, mode: 0o700 })
  const goWork = nodePath.join(folder, 'go.work')
  await writeFile(goWork, `go ${version}\n\nuse (\n${[...modules.values()].map((dir) => `\t${dir}\n`).join('')})\n`, { mode: 0o600 })
  return { GOWORK: goWork }
}
