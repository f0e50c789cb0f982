import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { listFiles } from '../src/profile/files.js'
import { LeakCheck, descendantPids } from './helpers.js'

// The Python corpus (a public web framework with nested example projects), unpacked from ../shared/corpora.
const corpora = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpora')
const archive = nodePath.join(corpora, 'flask.tar.gz')
const available = existsSync(archive)
if (!available) console.warn(`[python-roots] skipped: ${archive} is missing (the shared corpora are not beside this clone)`)

/** pyright processes among this process's descendants (its langserver script in the command line). */
async function pyrightProcesses(): Promise<number[]> {
  const pids: number[] = []
  for (const pid of await descendantPids()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('langserver.index.js')) pids.push(pid)
    } catch {
      // gone
    }
  }
  return pids
}

async function attach(root: string, options: HostOptions): Promise<{ host: LocalHost; lsp: LspService }> {
  const host = await createLocalHost(options)
  const lsp = createLsp()
  await host.attach(lsp, [{ root }])
  return { host, lsp }
}

describe.skipIf(!available)('nested Python projects in a real repository: one pyright per workspace root', () => {
  let root: string
  let remove: () => void
  const leaks = new LeakCheck()
  beforeAll(() => {
    const dest = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-flask-')))
    execFileSync('tar', ['-xzf', archive, '-C', dest])
    root = nodePath.join(dest, 'flask')
    remove = () => rmSync(dest, { recursive: true, force: true })
  })
  afterAll(async () => {
    remove()
    expect(await leaks.survivors()).toEqual([])
  })

  test('a workspace-symbol search runs exactly one pyright process and gives the same answer twice', async () => {
    const { host, lsp } = await attach(root, {})
    try {
      const first = await lsp.query({ operation: 'workspaceSymbols', root, query: 'Blueprint' })
      expect(await pyrightProcesses()).toHaveLength(1)
      await leaks.record()
      const second = await lsp.query({ operation: 'workspaceSymbols', root, query: 'Blueprint' })
      expect(await pyrightProcesses()).toHaveLength(1)
      const keys = (r: typeof first) =>
        r.symbols.map((s) => `${nodePath.relative(root, s.location.path)}:${s.location.range.start.line}:${s.name}:${s.kind}`)
      expect(keys(first).length).toBeGreaterThan(0)
      // No symbol twice, although the root's folder and the example folders are all workspace folders.
      expect(new Set(keys(first)).size).toBe(keys(first).length)
      expect(keys(second)).toEqual(keys(first))
      const nested = (await listFiles(root, { names: new Set(['pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json']) })).files
      const folders = new Set(nested.map((f) => nodePath.dirname(f))).size
      expect(first.meta.coverage).toEqual({ projectsSearched: folders, projectsFound: folders, complete: true })
      expect(host.status().filter((s) => s.providerId === 'local:pyright')).toHaveLength(1)
    } finally {
      await lsp.dispose()
      await host.dispose()
    }
  })

  test('the nested example projects get no import error that one server per project folder did not give', async () => {
    const examples = (await listFiles(nodePath.join(root, 'examples'), { extensions: new Set(['.py']) })).files
    expect(examples.length).toBeGreaterThan(5)
    const missingImports = async (options: HostOptions): Promise<string[]> => {
      const { host, lsp } = await attach(root, options)
      try {
        const found: string[] = []
        for (const file of examples) {
          const r = await lsp.query({ operation: 'diagnostics', root, path: file })
          for (const d of r.files.flatMap((f) => f.diagnostics)) {
            if (d.code === 'reportMissingImports' || d.code === 'reportMissingModuleSource')
              found.push(`${nodePath.relative(root, file)}:${d.range.start.line}: ${d.message}`)
          }
        }
        await leaks.record()
        return found.sort()
      } finally {
        await lsp.dispose()
        await host.dispose()
      }
    }
    // Today's behaviour before one server per root: a server per nearest marker folder.
    const perFolder = await missingImports({ profiles: [{ id: 'pyright', projectRoot: 'nearest' }] })
    const perRoot = await missingImports({})
    expect(perRoot.filter((d) => !perFolder.includes(d))).toEqual([])
  })
})
