import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'

import { cleanEnvironment, run } from './support/run.js'
import { readTarballFile } from './support/tarball.js'

/*
 * The packaging test: what a user gets from the registry. Every package under packages/ is packed from its
 * built dist (as `pnpm publish` would), the tarballs are installed together into an empty folder outside the
 * repository, once with npm and once with pnpm (everything else from the registry), and the installed
 * `codeseam` bin is run: `--help`, then an MCP session over stdio with the official SDK client that asks for
 * references in a small TypeScript and a small Python workspace. That answer needs the native TypeScript 7
 * server (`typescript-native`) and pyright to resolve from the installed layout, not from this repository.
 */

const repository = fileURLToPath(new URL('../../', import.meta.url))
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url))
const ci = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase())

/** The read tools (`mcp --read-only` lists exactly these) and the mutating ones; the CLI has a command for each. */
const readTools = [
  'code_completions',
  'code_diagnostics',
  'code_hierarchy',
  'code_hover',
  'code_impact',
  'code_inlay_hints',
  'code_navigate',
  'code_status',
  'code_symbols',
]
const mutatingTools = ['code_actions', 'code_format', 'code_insert', 'code_rename', 'code_replace', 'code_replace_batch']
const commandOf = (tool: string) => tool.replace(/^code_/, '').replaceAll('_', '-')

const installers = ['npm', 'pnpm'] as const
type Installer = (typeof installers)[number]

interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly exports?: Record<string, unknown>
  readonly bin?: Record<string, string>
  readonly dependencies?: Record<string, string>
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

/** The publishable packages: packages/* that are not private. */
const packages = readdirSync(join(repository, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(repository, 'packages', entry.name, 'package.json')))
  .map((entry) => {
    const dir = join(repository, 'packages', entry.name)
    return { dir, manifest: readJson<Manifest>(join(dir, 'package.json')) }
  })
  .filter((pkg) => pkg.manifest.private !== true)

/** Whether the registry npm (and pnpm, same configuration) would use answers, in at most about 15 seconds. */
async function pingRegistry(): Promise<string | undefined> {
  try {
    await run('npm', ['ping', '--fetch-timeout=10000', '--fetch-retries=0'], { cwd: tmpdir(), timeoutMs: 20_000 })
    return undefined
  } catch (error) {
    const message = (error as Error).message
    // npm's first lines of why (the code and the fetch error), not its stack.
    const why = message.split('\n').filter((line) => /exited with|was killed|error code|FetchError/.test(line))
    return why.length > 0 ? why.join('\n') : message
  }
}
const unreachable = await pingRegistry()
if (unreachable !== undefined && !ci)
  console.warn(`packaging test skipped: the registry does not answer \`npm ping\`, so nothing can be installed\n${unreachable}`)

test('the package registry is reachable (else the packaging test is skipped; under CI it fails)', (context) => {
  if (unreachable === undefined) return
  if (ci) throw new Error(`CI is set and the registry does not answer \`npm ping\`:\n${unreachable}`)
  context.skip(`the registry does not answer \`npm ping\`, so nothing can be installed; packaging test skipped:\n${unreachable}`)
})

/** The files a package's manifest promises (exports' import and types, bins), which must be in its dist. */
function promisedFiles(manifest: Manifest): ReadonlyArray<string> {
  const files = new Set<string>()
  for (const entry of Object.values(manifest.exports ?? {})) {
    if (typeof entry !== 'object' || entry === null) continue
    for (const [condition, file] of Object.entries(entry)) {
      if ((condition === 'import' || condition === 'types') && typeof file === 'string') files.add(file)
    }
  }
  for (const file of Object.values(manifest.bin ?? {})) files.add(file)
  return [...files]
}

/** Every `\bname\b` in a file as `path:line:column` (1-based), found by text, never counted by hand. */
function occurrences(root: string, path: string, name: string): ReadonlyArray<string> {
  const found: string[] = []
  readFileSync(join(root, path), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) found.push(`${path}:${index + 1}:${match.index + 1}`)
    })
  return found
}

interface ReferencesResult {
  readonly totalFound: number
  readonly files: ReadonlyArray<{
    readonly path: string
    readonly locations: ReadonlyArray<{ readonly line: number; readonly column: number }>
  }>
  readonly readiness?: { readonly provider?: string }
}

interface StatusResult {
  readonly servers: ReadonlyArray<{ readonly provider: string; readonly server: string; readonly rootId: string; readonly state: string }>
}

interface Workspace {
  /** The fixture folder under packaging/fixtures, copied to a temporary folder of that name (its root id). */
  readonly fixture: 'typescript' | 'python'
  /** The built-in profile that must answer. */
  readonly server: string
  readonly definitionFile: string
  readonly usingFile: string
  readonly symbol: string
}

const workspaces: ReadonlyArray<Workspace> = [
  { fixture: 'typescript', server: 'typescript', definitionFile: 'src/greeting.ts', usingFile: 'src/main.ts', symbol: 'greet' },
  { fixture: 'python', server: 'pyright', definitionFile: 'greeting.py', usingFile: 'main.py', symbol: 'greet' },
]

describe.skipIf(unreachable !== undefined && !ci)('packed tarballs installed together', () => {
  let work = ''
  let keep = false
  const tarballs = new Map<string, string>()
  const installs = new Map<Installer, Promise<{ readonly dir: string; readonly ms: number }>>()

  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      keep = true
    })
  })

  beforeAll(async () => {
    if (unreachable !== undefined) throw new Error(`CI is set and the registry does not answer \`npm ping\`:\n${unreachable}`)
    expect(packages.map((pkg) => pkg.manifest.name).sort()).toEqual([
      '@codeseam/lsp',
      '@codeseam/lsp-index',
      '@codeseam/lsp-local',
      '@codeseam/lsp-mcp',
      '@codeseam/lsp-vscode',
      '@codeseam/tool-lsp',
      '@codeseam/tool-lsp-mutate',
    ])
    for (const { dir, manifest } of packages) {
      for (const file of promisedFiles(manifest)) {
        if (!existsSync(join(dir, file)))
          throw new Error(
            `${manifest.name}: ${file} is missing; run \`pnpm build\` at the repository root first (with declarations: not CODESEAM_SKIP_DTS=1)`,
          )
      }
    }
    work = mkdtempSync(join(tmpdir(), 'codeseam-packaging-'))
    const destination = join(work, 'tarballs')
    mkdirSync(destination)
    // `pnpm pack` writes `workspace:*` as the real version, as `pnpm publish` does.
    const packed = await Promise.all(
      packages.map(async ({ dir, manifest }) => {
        const { stdout } = await run('pnpm', ['pack', '--pack-destination', destination, '--json'], { cwd: dir, timeoutMs: 60_000 })
        const { filename } = JSON.parse(stdout) as { filename: string }
        return { manifest, filename }
      }),
    )
    const versions = new Map(packages.map(({ manifest }) => [manifest.name, manifest.version]))
    for (const { manifest, filename } of packed) {
      const text = readTarballFile(filename, 'package/package.json')
      if (text === undefined) throw new Error(`${filename} has no package/package.json`)
      expect(text, `${filename}: package.json`).not.toContain('workspace:')
      const inside = JSON.parse(text) as Manifest
      expect(inside.name).toBe(manifest.name)
      for (const [name, spec] of Object.entries(inside.dependencies ?? {})) {
        if (versions.has(name)) expect(spec, `${manifest.name} → ${name}`).toBe(versions.get(name))
      }
      tarballs.set(manifest.name, filename)
    }
    // Both installs start now and run side by side; each installer's tests wait for their own.
    for (const installer of installers) {
      const install = installTarballs(installer)
      install.catch(() => {})
      installs.set(installer, install)
    }
  }, 120_000)

  afterAll(async () => {
    if (work === '') return
    if (keep) console.log(`packaging test failed: its folders are kept in ${work}`)
    // Two installed dependency trees: thousands of files.
    else await rm(work, { recursive: true, force: true })
  }, 120_000)

  /**
   * Installs every tarball into `<work>/<installer>`: our packages come from the tarballs (also where they
   * depend on each other at 0.0.0, which the registry does not have), everything else from the registry,
   * with the normal caches.
   */
  async function installTarballs(installer: Installer): Promise<{ readonly dir: string; readonly ms: number }> {
    const dir = join(work, installer)
    mkdirSync(dir)
    const ours = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]))
    const manifest = { name: `codeseam-packaging-${installer}`, version: '0.0.0', private: true, dependencies: ours }
    let args: string[]
    if (installer === 'npm') {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, overrides: ours }, null, 2))
      args = ['install', '--prefer-offline', '--no-audit', '--no-fund']
    } else {
      // pnpm 10+ reads overrides from pnpm-workspace.yaml (a "pnpm" field in package.json is ignored).
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2))
      const lines = Object.entries(ours).map(([name, spec]) => `  ${JSON.stringify(name)}: ${JSON.stringify(spec)}\n`)
      // pnpm 11+ refuses to install while a dependency's build script is unreviewed. core-js (a runtime
      // dependency of vscode-langservers-extracted) has one that only prints a message: a pnpm user says
      // no to it once, as docs/lsp-local.md tells them.
      writeFileSync(join(dir, 'pnpm-workspace.yaml'), `overrides:\n${lines.join('')}allowBuilds:\n  core-js: false\n`)
      // Under CI pnpm would demand a lockfile; there is none to keep.
      args = ['install', '--prefer-offline', '--no-frozen-lockfile']
    }
    const { ms } = await run(installer, args, { cwd: dir, timeoutMs: 540_000 })
    return { dir, ms }
  }

  const binOf = (dir: string) => join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codeseam.cmd' : 'codeseam')

  describe.each(installers)('%s', (installer) => {
    const installed = async () => {
      const install = installs.get(installer)
      if (install === undefined) throw new Error('the tarballs were not packed (see the first failure)')
      return (await install).dir
    }

    test('installs every tarball, with the packed build', async () => {
      const install = installs.get(installer)
      if (install === undefined) throw new Error('the tarballs were not packed (see the first failure)')
      const { dir, ms } = await install
      console.log(
        `${installer} install of ${tarballs.size} tarballs and their dependencies: ${(ms / 1000).toFixed(1)} s (started with the other install, side by side)`,
      )
      for (const { dir: source, manifest } of packages) {
        const target = join(dir, 'node_modules', ...manifest.name.split('/'))
        expect(readJson<Manifest>(join(target, 'package.json')).version).toBe(manifest.version)
        // The installed files are this build's, not an older copy from a cache.
        for (const file of promisedFiles(manifest)) {
          expect(readFileSync(join(target, file), 'utf8'), `${manifest.name}/${file}`).toBe(readFileSync(join(source, file), 'utf8'))
        }
      }
      expect(existsSync(binOf(dir))).toBe(true)
    }, 600_000)

    test('`codeseam --help` exits 0 and lists a command for every tool', async () => {
      const dir = await installed()
      const { stdout } = await run(binOf(dir), ['--help'], { cwd: dir, timeoutMs: 60_000 })
      const section = /\nCommands:\n([\s\S]*?)\n\n/.exec(stdout)?.[1]
      expect(section, stdout).toBeDefined()
      const commands = (section ?? '').split('\n').map((line) => line.trim().split(/\s+/)[0])
      expect(commands.sort()).toEqual(
        ['mcp', 'serve', 'daemon', 'doctor', 'install', 'index', ...[...readTools, ...mutatingTools].map(commandOf)].sort(),
      )
    }, 600_000)

    test('`codeseam doctor --json` finds every npm-shipped server inside the installed package', async () => {
      const dir = await installed()
      const { stdout } = await run(binOf(dir), ['doctor', '--json'], { cwd: dir, timeoutMs: 60_000 })
      const { languages } = JSON.parse(stdout) as {
        languages: Array<{ id: string; found: boolean; installSource: string; leadingArgs?: string[]; command?: string }>
      }
      const shipped = languages.filter((l) => l.installSource === 'dependency')
      expect(shipped.length).toBeGreaterThan(0)
      for (const language of shipped) {
        expect(language.found, `${language.id}: ${stdout}`).toBe(true)
        // Found in this install, never in the repository the test runs from.
        expect(realpathSync(language.leadingArgs?.[0] ?? language.command ?? ''), language.id).toContain(realpathSync(dir))
      }
    }, 600_000)

    test.each(workspaces)(
      'MCP over stdio: initialize, tools/list (--read-only) and references in the $fixture workspace, answered by $server',
      async (workspace) => {
        const dir = await installed()
        const root = join(work, `${installer}-workspaces`, workspace.fixture)
        cpSync(join(fixtures, workspace.fixture), root, { recursive: true })
        const transport = new StdioClientTransport({
          command: binOf(dir),
          args: ['mcp', '--daemon', 'never', '--root', root, '--read-only'],
          cwd: root,
          stderr: 'pipe',
          env: Object.fromEntries(Object.entries(cleanEnvironment()).filter((entry): entry is [string, string] => entry[1] !== undefined)),
        })
        let stderr = ''
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
        const client = new Client({ name: 'codeseam-packaging-test', version: '1.0.0' })
        try {
          await client.connect(transport, { timeout: 120_000 })
          expect(client.getServerCapabilities()?.tools, 'initialize: the server offers tools').toBeDefined()
          expect(client.getServerVersion()?.name, 'initialize: the server names itself').toBeTruthy()

          const { tools } = await client.listTools(undefined, { timeout: 60_000 })
          expect(tools.map((tool) => tool.name).sort()).toEqual(readTools)

          const answer = await client.callTool(
            {
              name: 'code_navigate',
              arguments: { target: { path: workspace.definitionFile, symbol: workspace.symbol }, kind: 'references' },
            },
            undefined,
            { timeout: 240_000 },
          )
          expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
          const references = answer.structuredContent as unknown as ReferencesResult
          const found = references.files.flatMap((file) =>
            file.locations.map((location) => `${file.path}:${location.line}:${location.column}`),
          )
          const expected = [
            ...occurrences(root, workspace.definitionFile, workspace.symbol),
            ...occurrences(root, workspace.usingFile, workspace.symbol),
          ]
          expect(references.files.map((file) => file.path)).toContain(workspace.usingFile)
          expect(found.sort()).toEqual(expected.sort())
          expect(references.totalFound).toBe(expected.length)
          // The answer names the server that gave it.
          expect(references.readiness?.provider).toBe(`local:${workspace.server}`)

          const status = await client.callTool({ name: 'code_status', arguments: {} }, undefined, { timeout: 60_000 })
          const servers = (status.structuredContent as unknown as StatusResult).servers
          const answering = servers.find((server) => server.server === workspace.server)
          expect(answering, JSON.stringify(servers)).toBeDefined()
          expect(answering?.rootId).toBe(workspace.fixture)
          expect(answering?.state).toBe('ready')
          if (workspace.fixture === 'python') {
            // ruff's WebAssembly build, resolved from the installed lsp-local (never bundled): its lint beside pyright's.
            const lint = await client.callTool({ name: 'code_diagnostics', arguments: { path: 'lint.py' } }, undefined, {
              timeout: 120_000,
            })
            expect(lint.isError, JSON.stringify(lint.content)).toBeFalsy()
            expect(JSON.stringify(lint.structuredContent)).toContain('"source":"Ruff"')
          }
        } catch (error) {
          console.error(`codeseam mcp --root ${root} (${installer} install) failed; its stderr:\n${stderr}`)
          throw error
        } finally {
          await client.close()
        }
      },
      600_000,
    )
  })
})
