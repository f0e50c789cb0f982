import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp } from '@codeseam/lsp'
import { createLocalHost } from '@codeseam/lsp-local'

import { callTool, readTools, toJsonSchema, toolContext, type AnyTool, type JsonSchemaObject, type ToolOutcome } from '../src/index.js'
import { pythonFiles, typeScriptFiles } from '../test/support/projects.js'

/**
 * Generates docs/tools.md from real runs: every read tool is called on a fixture workspace through the
 * local host (native TypeScript 7 and pyright), and the calls and answers are written down verbatim.
 * Everything machine-specific is normalized (the workspace path, uptime, memory) so the output is stable;
 * test/docs.test.ts fails when docs/tools.md differs from it.
 */

/** The workspace id used for the docs run (a stable name instead of the temp folder's). */
export const docsWorkspaceId = 'demo'

interface Example {
  readonly title: string
  readonly tool: AnyTool
  readonly args: unknown
}

function lineOf(files: Record<string, string>, file: string, needle: string): number {
  const index = (files[file] ?? '').split('\n').findIndex((line) => line.includes(needle))
  if (index < 0) throw new Error(`${file} has no line containing ${JSON.stringify(needle)}`)
  return index + 1
}

function examples(files: Record<string, string>): Example[] {
  const byName = new Map(readTools.map((t) => [t.name, t]))
  const tool = (name: string) => {
    const found = byName.get(name)
    if (found === undefined) throw new Error(`no tool ${name}`)
    return found
  }
  const reportLine = lineOf(files, 'src/main.ts', "track('report'")
  return [
    { title: 'Outline of a file', tool: tool('code_symbols'), args: { path: 'src/shapes.ts' } },
    { title: 'Workspace symbol search', tool: tool('code_symbols'), args: { query: 'greet' } },
    { title: 'An empty query is refused with guidance', tool: tool('code_symbols'), args: { query: '' } },
    {
      title: 'References, capped and paged',
      tool: tool('code_navigate'),
      args: { target: { path: 'src/telemetry.ts', symbol: 'track' }, kind: 'references', limit: 5 },
    },
    {
      title: 'Definition with its body, aimed by line + matchText',
      tool: tool('code_navigate'),
      args: { target: { path: 'src/main.ts', line: reportLine, matchText: 'track' }, kind: 'definition', includeBody: true },
    },
    {
      title: 'Implementations of an interface',
      tool: tool('code_navigate'),
      args: { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'implementation' },
    },
    {
      title: 'An ambiguous symbol returns candidates',
      tool: tool('code_navigate'),
      args: { target: { path: 'app/animals.py', symbol: 'speak' }, kind: 'references' },
    },
    {
      title: 'Callers, two levels deep',
      tool: tool('code_hierarchy'),
      args: { target: { path: 'src/shapes.ts', symbol: 'describe' }, kind: 'callers', depth: 2 },
    },
    {
      title: 'Subtypes, derived where the server has no type hierarchy (native TypeScript 7)',
      tool: tool('code_hierarchy'),
      args: { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'subtypes' },
    },
    {
      title: 'Supertypes in Python: a base with no declaration in the workspace is listed by name',
      tool: tool('code_hierarchy'),
      args: { target: { path: 'app/boxes.py', symbol: 'Crate' }, kind: 'supertypes' },
    },
    {
      title: 'What depends on a function, two levels deep, by file and package, tests apart',
      tool: tool('code_impact'),
      args: { target: { path: 'src/shapes.ts', symbol: 'describe' } },
    },
    {
      title: 'Overriding methods in Python (pyright has no implementation: derived)',
      tool: tool('code_navigate'),
      args: {
        target: { path: 'app/animals.py', line: lineOf(files, 'app/animals.py', 'def speak'), matchText: 'speak' },
        kind: 'implementation',
      },
    },
    {
      title: 'Type, docs and the active parameter inside a call',
      tool: tool('code_hover'),
      args: { target: { path: 'src/main.ts', line: reportLine, matchText: 'circle.area' } },
    },
    { title: 'Hover on a Python function', tool: tool('code_hover'), args: { target: { path: 'app/animals.py', symbol: 'greet' } } },
    { title: 'Diagnostics of one file', tool: tool('code_diagnostics'), args: { path: 'src/broken.ts' } },
    { title: 'Diagnostics of a Python file', tool: tool('code_diagnostics'), args: { path: 'app/broken.py' } },
    {
      title: 'Inferred types and parameter names on one line',
      tool: tool('code_inlay_hints'),
      args: { path: 'src/main.ts', range: { startLine: reportLine, endLine: reportLine } },
    },
    {
      title: 'Members after "circle."',
      tool: tool('code_completions'),
      args: { target: { path: 'src/main.ts', line: reportLine, matchText: 'circle.' } },
    },
    { title: 'Server status', tool: tool('code_status'), args: {} },
  ]
}

function typeOf(schema: JsonSchemaObject): string {
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchemaObject[]).filter((m) => m.type !== 'null') : undefined
  if (members !== undefined) return members.map(typeOf).join(' | ')
  if (Array.isArray(schema.enum))
    return schema.enum.length > 8
      ? 'symbol kind (e.g. "class", "function", "method")'
      : schema.enum.map((v) => JSON.stringify(v)).join(' \\| ')
  const bounds = [
    schema.minimum === undefined ? undefined : `≥ ${String(schema.minimum)}`,
    schema.maximum === undefined ? undefined : `≤ ${String(schema.maximum)}`,
  ]
    .filter((b) => b !== undefined)
    .join(', ')
  if (schema.type === 'array') return `${typeOf(schema.items as JsonSchemaObject)}[]`
  if (schema.type === 'object') {
    const keys = Object.keys((schema.properties ?? {}) as object)
    return keys.length === 0 ? 'object' : `{ ${keys.join(', ')} }`
  }
  return `${String(schema.type)}${bounds === '' ? '' : ` (${bounds})`}`
}

function parameterTable(tool: AnyTool): string {
  const schema = toJsonSchema(tool.input)
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaObject>
  const required = new Set((schema.required ?? []) as string[])
  const rows = Object.entries(properties).map(([name, property]) => {
    const description = String(
      property.description ?? (Array.isArray(property.anyOf) ? ((property.anyOf as JsonSchemaObject[])[0]?.description ?? '') : ''),
    )
    return `| \`${name}\` | ${typeOf(property).replace(/\|(?! )/g, '\\|')} | ${required.has(name) ? 'yes' : 'no'} | ${description.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`
  })
  if (rows.length === 0) return '_No parameters._'
  return ['| parameter | type | required | description |', '|---|---|---|---|', ...rows].join('\n')
}

/** Removes what differs between machines and runs. */
function normalize(text: string, root: string): string {
  return (
    text
      .split(root)
      .join('<workspace>')
      .replace(/"uptimeSeconds": \d+/g, '"uptimeSeconds": "<varies>"')
      .replace(
        /"(memoryMb|memorySampledSecondsAgo|memoryCeilingMb|residentMb|sampledSecondsAgo|perServerCeilingMb|usedMb|budgetMb)": \d+/g,
        '"$1": "<varies>"',
      )
      .replace(/up \d+s/g, 'up <n>s')
      .replace(/, \d+ MB\)/g, ', <n> MB)')
      // Memory samples (RFC 0030): what a server holds, when it was read, and the ceiling sized for the machine.
      .replace(/\d+ MB sampled \d+s ago/g, '<n> MB sampled <n>s ago')
      .replace(/memory: \d+ MB resident/g, 'memory: <n> MB resident')
      .replace(/sampled up to \d+s ago/g, 'sampled up to <n>s ago')
      .replace(/its \d+ MB per-server ceiling/g, 'its <n> MB per-server ceiling')
      // The budget (RFC 0033): what the servers hold of it, sized for the machine.
      .replace(/\d+ of \d+ MB budget/g, '<n> of <n> MB budget')
      // The activity rollup's figures depend on the machine and on what ran before.
      .replace(/"(calls|p50Ms|p95Ms)": [\d.]+/g, '"$1": "<varies>"')
      .replace(/: \d+ calls?, p50 [\d.]+ ms, p95 [\d.]+ ms/g, ': <n> calls, p50 <n> ms, p95 <n> ms')
  )
}

function renderExample(example: Example, outcome: ToolOutcome, root: string): string {
  const parts = [
    `### ${example.title}`,
    '',
    'Call:',
    '',
    '```json',
    JSON.stringify({ name: example.tool.name, arguments: example.args }, null, 2),
    '```',
    '',
    `${outcome.ok ? 'Text result' : `Error (\`${outcome.error.code}\`)`} — summary: _${outcome.summary}_`,
    '',
    '```text',
    outcome.text.trimEnd(),
    '```',
  ]
  if (outcome.ok) {
    parts.push(
      '',
      '<details><summary>Structured result</summary>',
      '',
      '```json',
      JSON.stringify(outcome.structured, null, 2),
      '```',
      '',
      '</details>',
    )
  }
  return normalize(parts.join('\n'), root)
}

/** Runs every example against real servers and returns the markdown of docs/tools.md. */
export async function generateToolsDoc(): Promise<string> {
  const files = { ...typeScriptFiles(3), ...pythonFiles() }
  const root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'tool-lsp-docs-')))
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(nodePath.dirname(nodePath.join(root, relative)), { recursive: true })
    await writeFile(nodePath.join(root, relative), text)
  }
  // Only the servers the docs show: a machine with or without clangd must produce the same file.
  const host = await createLocalHost({ profiles: [{ id: 'clangd', enabled: false }] })
  const lsp = createLsp()
  try {
    await host.attach(lsp, [{ root, id: docsWorkspaceId, trust: 'trusted' }])
    const context = toolContext(lsp)
    const list = examples(files)
    // A first pass warms the servers up, so the recorded answers are the steady-state ones.
    for (const example of list) await callTool(example.tool, example.args, context)
    const recorded = new Map<AnyTool, string[]>()
    for (const example of list) {
      const outcome = await callTool(example.tool, example.args, context)
      recorded.set(example.tool, [...(recorded.get(example.tool) ?? []), renderExample(example, outcome, root)])
    }
    const sections = readTools.map((tool) =>
      [
        `## \`${tool.name}\` — ${tool.title}`,
        '',
        tool.description,
        '',
        parameterTable(tool),
        '',
        ...(recorded.get(tool) ?? []).flatMap((e) => [e, '']),
      ].join('\n'),
    )
    return [
      '# Read tools',
      '',
      '<!-- Generated by packages/tool-lsp/scripts/gen-docs.ts from real runs. Do not edit by hand. -->',
      '',
      'The read-only model-facing tools of `@codeseam/tool-lsp`. Every example below is a real call answered by the',
      'native TypeScript 7 server or pyright through `@codeseam/lsp-local`, on a small fixture workspace',
      '(`<workspace>`, id `demo`): a TypeScript project (`src/`) and a Python package (`app/`).',
      '',
      'Regenerate after changing a tool: `cd packages/tool-lsp && npx vitest run test/docs.test.ts -u`.',
      "`test/docs.test.ts` runs in the default suite and fails when this file differs from the generator's output.",
      '',
      '## Conventions',
      '',
      '- Paths are workspace-relative with forward slashes; lines and columns are 1-based (columns in UTF-16 code units, as editors show).',
      '- `target` names a file plus a `symbol` (dotted for members: `Router.match`, optionally `kind`), or a `line` with `matchText`.',
      '  A name declared several times fails with `AMBIGUOUS` and lists candidates; read tools accept `firstMatch: true`.',
      '- Every list is budgeted the same way: `page` = `{ returned, total, limit, offset?, truncated, nextCursor? }`; pass',
      '  `nextCursor` back as `cursor` with the same arguments for the next page. Later pages of references, implementations,',
      '  callers and callees, outlines, symbol search and workspace diagnostics come from the answer the first page computed',
      '  (no language-server request) while no file in the workspace changed; after a change the cursor fails with',
      '  `STALE_VERSION`: ask again without it ([RFC 0026](../rfc/0026-pages-from-the-computed-answer.md)).',
      '- Every answer carries `readiness` (`ready` / `indexing` / `degraded`, and whether the server was warm) and a `notice`',
      '  when an empty or short answer should not be trusted as "nothing exists", or when part of it could not be had',
      '  (a file that could not be read for snippets, or was kept from being read by a per-file limit — "1 file skipped: over',
      '  4 MB (limits.maxFileBytes), so its snippets are empty" —, a file whose outline failed so `symbol`/`container` are',
      "  missing). A query whose answer would be larger than the host's message limit (`maxMessageBytes`, 64 MiB) fails",
      '  with `UNAVAILABLE` naming that limit; the server keeps running.',
      '- A workspace-wide answer (references, implementations, callers, rename, symbol search) that did not search the whole',
      '  workspace says what it left out, e.g. `searched 3 of 5 projects; 12 files in no project were not searched (over the',
      '  open-document limit: raise limits.maxOpenDocuments); not searched: app/examples (every language server busy under',
      '  limits.maxServers)`; a complete search adds nothing. A search over several roots keeps what the roots that answered',
      '  found and names each root it could not search (`not searched: <root id> (CODE: reason)`); it fails only when none answered.',
      "- Roots are named by id (`rootId`), never by absolute path; `code_status` lists them by id and shows each server's",
      '  projects loaded of those found.',
      '- Failures come back as `error CODE: message` with a stable code (`INVALID_ARGUMENT`, `NOT_FOUND`, `AMBIGUOUS`,',
      '  `OUTSIDE_WORKSPACE`, `UNAVAILABLE`, `UNSUPPORTED_OPERATION`, `TIMEOUT`, …); never as an empty result.',
      '- Text results are capped by a character budget (default 24 000) and end with an explicit truncation marker when cut.',
      '',
      ...sections,
    ]
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
  } finally {
    await lsp.dispose()
    await host.dispose()
    await rm(root, { recursive: true, force: true })
  }
}
