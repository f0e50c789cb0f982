import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { noticeFor } from '@codeseam/tool-lsp'

import { globalFlags, parseCommand, UsageError } from '../src/cli/arguments.js'
import { forOneShot } from '../src/cli/cli-words.js'
import { commandName, toolCommand } from '../src/cli/flags.js'
import { linkLocations, useColor } from '../src/cli/output.js'
import { collectTools } from '../src/tool-set.js'

// The CLI's parts that need no language server: flags derived from tool schemas, argument conversion,
// location links and color choice.

const tool = (name: string) => {
  const found = collectTools().find((t) => t.name === name)
  if (found === undefined) throw new Error(`no tool ${name}`)
  return found
}

describe('flags from tool schemas', () => {
  it('gives every tool a command, with the target as positional path plus aiming flags', () => {
    const names = collectTools().map(commandName)
    expect(names).toEqual(
      expect.arrayContaining(['navigate', 'symbols', 'hover', 'diagnostics', 'status', 'rename', 'inlay-hints', 'replace-batch']),
    )
    const navigate = toolCommand(tool('code_navigate'))
    expect(navigate.positional).toEqual({ path: ['target', 'path'], label: 'PATH', required: true })
    const flags = Object.fromEntries(navigate.flags.map((f) => [f.flag, f]))
    expect(flags.symbol?.path).toEqual(['target', 'symbol'])
    expect(flags['symbol-kind']?.path).toEqual(['target', 'kind'])
    expect(flags.kind).toMatchObject({
      path: ['kind'],
      required: true,
      choices: ['definition', 'typeDefinition', 'declaration', 'implementation', 'references'],
    })
    expect(flags['include-body']?.type).toBe('boolean')
    expect(flags.limit?.type).toBe('integer')
  })

  it('maps rename --to onto newName and --dry-run onto dryRun', () => {
    const { input } = parseCommand(toolCommand(tool('code_rename')), ['src/x.ts', '--symbol', 'foo', '--to', 'bar', '--dry-run'])
    expect(input).toEqual({ target: { path: 'src/x.ts', symbol: 'foo' }, newName: 'bar', dryRun: true })
  })

  it('converts numbers and repeated strings, and reads the global flags', () => {
    const { input, globals } = parseCommand(toolCommand(tool('code_actions')), [
      'src/a.ts',
      '--line',
      '3',
      '--only',
      'quickfix',
      '--only',
      'source.organizeImports',
      '--root',
      '/r1',
      '--root',
      '/r2',
      '--json',
      '--trust',
      'trusted',
    ])
    expect(input).toEqual({ path: 'src/a.ts', line: 3, only: ['quickfix', 'source.organizeImports'] })
    expect(globals).toMatchObject({ roots: ['/r1', '/r2'], json: true, trust: 'trusted' })
  })

  it('fails with a UsageError naming the flag for bad values, unknown flags, extra arguments and missing required flags', () => {
    const navigate = toolCommand(tool('code_navigate'))
    const usage = (args: string[]) => {
      try {
        parseCommand(navigate, args)
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError)
        return (error as Error).message
      }
      throw new Error(`no usage error for ${args.join(' ')}`)
    }
    expect(usage(['a.ts', '--kind', 'references', '--line', '2.5'])).toContain('--line needs a whole number')
    expect(usage(['a.ts', '--kind', 'sideways'])).toContain('--kind must be one of')
    expect(usage(['a.ts', '--kind', 'references', '--nope'])).toContain('--nope')
    expect(usage(['a.ts', 'b.ts', '--kind', 'references'])).toContain('unexpected argument "b.ts"')
    expect(usage(['a.ts'])).toContain('missing --kind')
    expect(usage(['--kind', 'references'])).toContain('PATH is required')
    expect(parseCommand(navigate, ['--help']).globals.help).toBe(true)
  })
})

describe('resource-limit flags', () => {
  it('map to lsp-local limits, MiB to bytes, and refuse what is not a whole number in range', () => {
    const flags = globalFlags({
      'max-servers': '2',
      'server-memory-mb': '512',
      'memory-budget-mb': '2048',
      'node-heap-mb': '0',
      'max-open-documents': '50',
      'max-file-bytes': '1048576',
      'max-line-length': '0',
      'env-allow': ['HTTPS_PROXY'],
    })
    expect(flags.limits).toEqual({
      maxServers: 2,
      maxServerMemoryBytes: 512 * 1024 * 1024,
      memoryBudgetBytes: 2048 * 1024 * 1024,
      nodeHeapMb: 0,
      maxOpenDocuments: 50,
      maxFileBytes: 1048576,
      maxLineLength: 0,
    })
    expect(flags.envAllow).toEqual(['HTTPS_PROXY'])
    // A stored index is used unless --no-index (RFC 0034).
    expect(flags.index).toBe(true)
    expect(globalFlags({ 'no-index': true }).index).toBe(false)
    expect(globalFlags({}).limits).toEqual({})
    for (const [flag, value] of [
      ['max-servers', '0'],
      ['server-memory-mb', '-1'],
      ['memory-budget-mb', 'half'],
      ['node-heap-mb', '1.5'],
      ['max-open-documents', 'many'],
      ['max-file-bytes', '-1'],
      ['max-line-length', '4k'],
    ] as const) {
      expect(() => globalFlags({ [flag]: value }, 'status')).toThrow(UsageError)
    }
  })
})

describe('telemetry flags', () => {
  it('read --otel-endpoint and --otel-include-paths on every command, and refuse an endpoint that is not an http(s) URL', () => {
    expect(globalFlags({}).otel).toEqual({})
    expect(globalFlags({ 'otel-endpoint': 'http://localhost:4318', 'otel-include-paths': true }).otel).toEqual({
      endpoint: 'http://localhost:4318',
      includePaths: true,
    })
    const { globals } = parseCommand(toolCommand(tool('code_status')), ['--otel-endpoint', 'https://collector.example:4318/base'])
    expect(globals.otel.endpoint).toBe('https://collector.example:4318/base')
    for (const bad of ['localhost:4318', 'ftp://collector/', 'not a url', '']) {
      expect(() => globalFlags({ 'otel-endpoint': bad }, 'mcp')).toThrow(/--otel-endpoint must be an http:\/\/ or https:\/\/ URL/)
    }
  })
})

describe('output', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-links-'))
    await mkdir(nodePath.join(root, 'src'))
    await writeFile(nodePath.join(root, 'src', 'a.ts'), 'export const a = 1\n')
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('makes grouped and inline locations clickable from the current directory, leaving unknown paths alone', () => {
    const text = ['target: a at src/a.ts:1:14', 'src/a.ts (1)', '  1:14  export const a = 1', 'other.ts:3:4 is not here'].join('\n')
    const fromParent = linkLocations(text, root, nodePath.dirname(root), false)
    const base = nodePath.basename(root)
    expect(fromParent.split('\n')).toEqual([
      `target: a at ${base}/src/a.ts:1:14`,
      'src/a.ts (1)',
      `  ${base}/src/a.ts:1:14  export const a = 1`,
      'other.ts:3:4 is not here',
    ])
    expect(linkLocations(text, root, root, true)).toContain('\x1b[36msrc/a.ts:1:14\x1b[39m')
  })

  it('colors only terminals unless told otherwise', () => {
    expect(useColor({ write: () => true, isTTY: true }, undefined, {})).toBe(true)
    expect(useColor({ write: () => true }, undefined, {})).toBe(false)
    expect(useColor({ write: () => true, isTTY: true }, undefined, { NO_COLOR: '1' })).toBe(false)
    expect(useColor({ write: () => true }, undefined, { FORCE_COLOR: '1' })).toBe(true)
    expect(useColor({ write: () => true, isTTY: true }, false, {})).toBe(false)
  })
})

// Issue 32: a one-shot command was told to "ask again once code_status shows it ready", which starts cold again.
describe('advice for a one-shot command', () => {
  const meta = (status: 'ready' | 'indexing', warm: boolean) => ({
    providerId: 'local:typescript',
    status,
    warm,
    truncated: false,
    elapsedMs: 1,
  })
  it("rewrites the tools' cold-server advice, as the tools word it today", () => {
    const indexing = noticeFor(meta('indexing', false), true, 'references') ?? ''
    const cold = noticeFor(meta('ready', false), true, 'references') ?? ''
    expect(indexing).toContain('code_status')
    expect(cold).toContain('ask again before concluding')
    for (const notice of [indexing, cold]) {
      const said = forOneShot(notice)
      expect(said).not.toMatch(/code_status|ask again before concluding/)
      expect(said).toContain('ask through `codeseam mcp` (it keeps the servers running)')
    }
    expect(forOneShot('showing references 1–100 of 500; more: call again with cursor "c1.abc"')).toBe(
      'showing references 1–100 of 500; more: run it again with --cursor c1.abc',
    )
    expect(forOneShot('dry run: nothing was written; call again without dryRun to apply')).toBe(
      'dry run: nothing was written; run it again without --dry-run to apply',
    )
  })
})
