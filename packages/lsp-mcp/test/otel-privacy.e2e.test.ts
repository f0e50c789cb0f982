import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it, onTestFailed } from 'vitest'

import { collectTools } from '../src/tool-set.js'
import { startMcp, withDeadline, type McpProcess } from './support/mcp-process.js'
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js'
import { lineOf, removeWorkspace } from './support/workspace.js'

// The privacy rule, end to end: one unique string planted in the root folder's name, a file's name, symbol
// names and source text; every tool run with export on (read and mutating, successes and failures, NOT_FOUND
// and AMBIGUOUS on the planted names included); then every byte the collector received — spans and the
// metrics flushed at exit — is searched for it. With --otel-include-paths the relative path appears, and
// text that only the source holds still does not.

type Json = any

const exportEnv = { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '600000' }
// Unique per run, lower case (so a case-insensitive search also catches a lower-cased copy).
const planted = `zq${randomBytes(4).toString('hex')}plant`
// Only ever in the source text: a string literal and a comment, never a name.
const sourceOnly = `srconly${randomBytes(4).toString('hex')}`
const moduleFile = `src/${planted}_mod.ts`

let root: string | undefined
let receiver: OtlpReceiver | undefined
let mcp: McpProcess | undefined

afterEach(async () => {
  await mcp?.close()
  mcp = undefined
  await receiver?.close()
  if (root !== undefined) await removeWorkspace(nodePath.dirname(root))
  root = undefined
})

/** A TypeScript workspace whose root folder, one file and its symbols carry the planted string. */
async function plantedWorkspace(): Promise<string> {
  const parent = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-privacy-')))
  const dir = nodePath.join(parent, `${planted}-root`)
  await mkdir(nodePath.join(dir, 'src'), { recursive: true })
  await writeFile(
    nodePath.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' } }),
  )
  await writeFile(
    nodePath.join(dir, moduleFile),
    [
      `// ${sourceOnly}: a comment only the source holds`,
      `export const ${planted}Label = '${sourceOnly} in a string literal'`,
      '',
      `export interface ${planted}Shape {`,
      '  area(): number',
      '}',
      '',
      `export class ${planted}Box implements ${planted}Shape {`,
      `  constructor(private readonly ${planted}Side: number) {}`,
      '  area(): number {',
      `    return this.${planted}Side * this.${planted}Side`,
      '  }',
      '}',
      '',
      `export function ${planted}Total(shapes: ${planted}Shape[]): number {`,
      '  return shapes.reduce((sum, s) => sum + s.area(), 0)',
      '}',
      '',
      `export namespace ${planted}One {`,
      `  export function ${planted}Dup(): number { return 1 }`,
      '}',
      `export namespace ${planted}Two {`,
      `  export function ${planted}Dup(): number { return 2 }`,
      '}',
      '',
    ].join('\n'),
  )
  await writeFile(
    nodePath.join(dir, 'src/use.ts'),
    [
      `import { ${planted}Box, ${planted}Total } from './${planted}_mod.js'`,
      '',
      `export const ${planted}Result = ${planted}Total([new ${planted}Box(2), new ${planted}Box(3)])`,
      `const unused${planted}   =   ${planted}Result+1`,
      '',
    ].join('\n'),
  )
  return dir
}

async function start(args: ReadonlyArray<string>): Promise<McpProcess> {
  receiver = await startOtlpReceiver()
  const started = await startMcp(['--root', root!, '--otel-endpoint', receiver.url, '--allow-edits', ...args], { env: exportEnv })
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${started.stderr()}\nspans:\n${receiver?.tree()}`))
  mcp = started
  return started
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp!.client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallToolResult
}

const codeOf = (result: CallToolResult) =>
  ((result.structuredContent as Json)?.error?.code ?? (result._meta as Json)?.['codeseam/error']?.code) as string | undefined

/** Closes the session, so its exporter flushes spans and metrics; resolves with every byte received. */
async function everythingExported(): Promise<string> {
  const session = mcp!
  await session.close()
  await withDeadline(session.exited, 30_000, 'codeseam mcp to exit')
  // Metrics leave only at exit (ten-minute interval): their arrival means the exit flush is done.
  await receiver!.waitForMetric((p) => p.metric === 'codeseam.tool.duration')
  return receiver!.rawText()
}

describe('privacy of exported telemetry', () => {
  it('every tool, failures included: the planted string is nowhere in what the collector received', async () => {
    root = await plantedWorkspace()
    await start([])
    const outcomes: Record<string, string> = {}
    const run = async (label: string, name: string, args: Record<string, unknown>) => {
      const result = await call(name, args)
      outcomes[label] = result.isError === true ? (codeOf(result) ?? 'error') : 'ok'
      return result
    }

    await run('symbols', 'code_symbols', { path: moduleFile })
    await run('symbols workspace', 'code_symbols', { query: planted })
    await run('definition', 'code_navigate', { target: { path: 'src/use.ts', symbol: `${planted}Result` }, kind: 'definition' })
    await run('references', 'code_navigate', { target: { path: moduleFile, symbol: `${planted}Total` }, kind: 'references' })
    await run('implementation', 'code_navigate', { target: { path: moduleFile, symbol: `${planted}Shape` }, kind: 'implementation' })
    await run('not found', 'code_navigate', { target: { path: moduleFile, symbol: `${planted}Missing` }, kind: 'references' })
    await run('ambiguous', 'code_navigate', { target: { path: moduleFile, symbol: `${planted}Dup` }, kind: 'references' })
    await run('missing file', 'code_hover', { target: { path: `src/${planted}_absent.ts`, line: 1 } })
    await run('hierarchy', 'code_hierarchy', { target: { path: moduleFile, symbol: `${planted}Total` }, kind: 'callers' })
    await run('impact', 'code_impact', { target: { path: moduleFile, symbol: `${planted}Total` } })
    await run('hover', 'code_hover', { target: { path: moduleFile, symbol: `${planted}Box` } })
    await run('diagnostics', 'code_diagnostics', { path: 'src/use.ts' })
    await run('inlay hints', 'code_inlay_hints', { path: moduleFile })
    await run('completions', 'code_completions', {
      target: { path: 'src/use.ts', line: await lineOf(root, 'src/use.ts', `${planted}Total(`), matchText: `${planted}Total(` },
    })
    await run('status', 'code_status', {})
    await run('actions', 'code_actions', { path: 'src/use.ts', line: await lineOf(root, 'src/use.ts', 'const unused') })
    await run('format', 'code_format', { path: 'src/use.ts' })
    await run('insert', 'code_insert', {
      target: { path: moduleFile, symbol: `${planted}Total` },
      position: 'after',
      text: `export function ${planted}Extra(): number {\n  return 0\n}\n`,
    })
    await run('replace', 'code_replace', {
      target: { path: moduleFile, symbol: `${planted}Extra` },
      text: `export function ${planted}Extra(): number {\n  return 1 // ${sourceOnly}\n}\n`,
    })
    await run('replace batch', 'code_replace_batch', {
      edits: [
        {
          target: { path: moduleFile, symbol: `${planted}One.${planted}Dup` },
          text: `export function ${planted}Dup(): number { return 11 }`,
        },
      ],
    })
    await run('rename', 'code_rename', { target: { path: moduleFile, symbol: `${planted}Total` }, newName: `${planted}Sum` })
    await run('rename to a bad name', 'code_rename', { target: { path: moduleFile, symbol: `${planted}Sum` }, newName: `${planted} bad` })

    // Every tool ran, and the failures are the ones planted.
    const ran = new Set([
      'code_symbols',
      'code_navigate',
      'code_hover',
      'code_impact',
      'code_hierarchy',
      'code_diagnostics',
      'code_inlay_hints',
      'code_completions',
      'code_status',
      'code_actions',
      'code_format',
      'code_insert',
      'code_replace',
      'code_replace_batch',
      'code_rename',
    ])
    expect([...ran].sort()).toEqual(
      collectTools()
        .map((t) => t.name)
        .sort(),
    )
    expect(outcomes['not found']).toBe('NOT_FOUND')
    expect(outcomes['ambiguous']).toBe('AMBIGUOUS')
    expect(outcomes['rename'], JSON.stringify(outcomes)).toBe('ok')
    expect(outcomes['insert'], JSON.stringify(outcomes)).toBe('ok')

    const raw = await everythingExported()
    // What was received is substantial: every tool's span and the metrics, with the failures' codes.
    for (const tool of ran) expect(raw).toContain(tool)
    expect(raw).toContain('NOT_FOUND')
    expect(raw).toContain('AMBIGUOUS')
    expect(raw.toLowerCase()).not.toContain(planted)
    expect(raw.toLowerCase()).not.toContain(sourceOnly)
    expect(raw).not.toContain(nodePath.dirname(root))
  })

  it('with --otel-include-paths the relative path appears; the source text still does not', async () => {
    root = await plantedWorkspace()
    await start(['--otel-include-paths'])
    expect((await call('code_navigate', { target: { path: moduleFile, symbol: `${planted}Total` }, kind: 'references' })).isError).toBe(
      false,
    )
    expect((await call('code_hover', { target: { path: moduleFile, symbol: `${planted}Label` } })).isError).toBe(false)
    const raw = await everythingExported()
    expect(raw).toContain(moduleFile)
    expect(raw).toContain(`${planted}Total`)
    expect(raw.toLowerCase()).not.toContain(sourceOnly)
    // A workspace-relative path, never the absolute one.
    expect(raw).not.toContain(root)
  })
})
