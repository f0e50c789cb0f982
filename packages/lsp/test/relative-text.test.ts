import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import {
  createLsp,
  relativizeText,
  resultMeta,
  type LspHierarchyItem,
  type LspOperation,
  type LspQueryResult,
  type LspWorkspaceSymbol,
} from '../src/index.js'
import { staticProvider } from './providers.js'

const root = '/tmp/root'

describe('relativizeText', () => {
  const cases: Array<[string, string]> = [
    ['/tmp/root/src/a.ts', 'src/a.ts'],
    ['module /tmp/root/src/x.test.ts', 'module src/x.test.ts'],
    [
      'Type \'Promise<typeof import("/tmp/root/src/shapes")>\' is not assignable',
      'Type \'Promise<typeof import("src/shapes")>\' is not assignable',
    ],
    [": Promise<typeof import('/tmp/root/src/shapes')>", ": Promise<typeof import('src/shapes')>"],
    ['module "/tmp/root"', 'module "."'],
    ['the root is /tmp/root', 'the root is .'],
    ['the root is /tmp/root/', 'the root is .'],
    ['outside /tmp/root.', 'outside ./.'],
    [
      'Cycle detected in import chain\n  /tmp/root/app/a.py\n  /tmp/root/app/b.py',
      'Cycle detected in import chain\n  app/a.py\n  app/b.py',
    ],
    [
      'see [track](file:///tmp/root/src/telemetry.ts#L4,17) and file:///tmp/root/src/a.ts',
      'see [track](src/telemetry.ts#L4,17) and src/a.ts',
    ],
    ['/tmp/root/.venv/lib', '.venv/lib'],
    ['(/tmp/root/a.ts:3:1), /tmp/root/b.ts; /tmp/root/c.ts', '(a.ts:3:1), b.ts; c.ts'],
    // Sibling folders whose name starts with the root's are not under it.
    ['/tmp/rootX/src/a.ts', '/tmp/rootX/src/a.ts'],
    ['/tmp/root-2/a.ts and /tmp/root_b and /tmp/root.bak/a', '/tmp/root-2/a.ts and /tmp/root_b and /tmp/root.bak/a'],
    ['file:///tmp/rootX/a.ts', 'file:///tmp/rootX/a.ts'],
    // A longer path that merely ends with the root's spelling is not the root.
    ['/var/tmp/root/a.ts', '/var/tmp/root/a.ts'],
    ['/tmp/root/../etc', '../etc'],
    ['no paths here', 'no paths here'],
    ['', ''],
  ]
  it.each(cases)('%j → %j', (text, expected) => {
    expect(relativizeText(text, root)).toBe(expected)
  })

  it('accepts the root with a trailing separator, and leaves the file-system root alone', () => {
    expect(relativizeText('/tmp/root/src/a.ts', '/tmp/root/')).toBe('src/a.ts')
    expect(relativizeText('/usr/lib/x and /tmp/a', '/')).toBe('/usr/lib/x and /tmp/a')
  })

  it('matches the percent-encoded and the plain file: URI of a root with a space', () => {
    const spaced = '/tmp/my root'
    expect(relativizeText(`${pathToFileURL(spaced).href}/src/a%20b.ts`, spaced)).toBe('src/a%20b.ts')
    expect(relativizeText('file:///tmp/my root/src/a.ts and /tmp/my root/b.ts', spaced)).toBe('src/a.ts and b.ts')
    expect(relativizeText('/tmp/my rootless/b.ts', spaced)).toBe('/tmp/my rootless/b.ts')
  })

  describe('through a symbolic link', () => {
    let base: string
    let real: string
    let link: string
    beforeAll(async () => {
      base = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'lsp-relative-')))
      real = nodePath.join(base, 'real-project')
      link = nodePath.join(base, 'linked')
      await mkdir(real)
      await symlink(real, link)
    })
    afterAll(async () => {
      await rm(base, { recursive: true, force: true })
    })

    it('rewrites the root as given and its canonical path', () => {
      expect(relativizeText(`${link}/src/a.ts and ${real}/src/b.ts and ${pathToFileURL(real).href}/c.ts`, link)).toBe(
        'src/a.ts and src/b.ts and c.ts',
      )
      expect(relativizeText(`${real}-copy/a.ts`, link)).toBe(`${real}-copy/a.ts`)
    })
  })
})

describe('the service rewrites free text of every answer under the request root', () => {
  const abs = (relative: string) => `${root}/${relative}`
  const uri = (relative: string) => pathToFileURL(abs(relative)).href
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } }
  const moduleItem: LspHierarchyItem = {
    id: 'm1',
    name: abs('src/x.test.ts'),
    kind: 'module',
    detail: `in ${abs('src')}`,
    uri: uri('src/x.test.ts'),
    path: abs('src/x.test.ts'),
    range,
    selectionRange: range,
    data: { name: abs('src/x.test.ts'), uri: uri('src/x.test.ts') },
  }
  const location = { uri: uri('src/a.ts'), path: abs('src/a.ts'), range }

  function answer(request: { operation: LspOperation }): LspQueryResult {
    const meta = resultMeta('p')
    switch (request.operation) {
      case 'hover':
        return {
          kind: 'hover',
          hover: { contents: `module "${abs('src/telemetry')}"\n[link](${uri('src/a.ts')}#L1)`, format: 'markdown' },
          meta,
        }
      case 'prepareCallHierarchy':
        return { kind: 'hierarchyItems', items: [moduleItem], meta }
      case 'incomingCalls':
        return { kind: 'hierarchyCalls', calls: [{ item: moduleItem, fromRanges: [range] }], meta }
      case 'documentSymbols':
        return {
          kind: 'documentSymbols',
          symbols: [
            {
              name: `"${abs('src/m')}"`,
              kind: 'module',
              detail: abs('src/m.ts'),
              range,
              selectionRange: range,
              children: [
                { name: 'inner', kind: 'function', detail: `from ${abs('src/n.ts')}`, range, selectionRange: range, children: [] },
              ],
            },
          ],
          meta,
        }
      case 'workspaceSymbols':
        return {
          kind: 'workspaceSymbols',
          symbols: [
            { name: 'track', kind: 'function', containerName: `"${abs('src/telemetry')}"`, location },
            { name: 'track', kind: 'function', containerName: `"${abs('src/telemetry')}"`, location },
          ],
          meta,
        }
      case 'diagnostics':
        return {
          kind: 'diagnostics',
          files: [
            {
              uri: uri('src/a.ts'),
              path: abs('src/a.ts'),
              freshness: 'current',
              diagnostics: [
                {
                  range,
                  severity: 'error',
                  message: `Cannot use import("${abs('src/b')}")`,
                  related: [{ location, message: `declared in ${abs('src/b.ts')}` }],
                },
              ],
            },
          ],
          coverage: { analysed: [abs('src/a.ts')], complete: true },
          meta,
        }
      case 'signatureHelp':
        return {
          kind: 'signatureHelp',
          signatureHelp: {
            signatures: [
              {
                label: `f(m: typeof import("${abs('src/b')}"))`,
                documentation: `see ${abs('README.md')}`,
                parameters: [{ label: `m: typeof import("${abs('src/b')}")` }],
              },
            ],
            activeSignature: 0,
            activeParameter: 0,
          },
          meta,
        }
      case 'completion':
        return {
          kind: 'completion',
          isIncomplete: false,
          items: [{ label: 'b', detail: `module "${abs('src/b')}"`, documentation: abs('src/b.ts'), insertText: abs('src/b.ts') }],
          meta,
        }
      case 'inlayHints':
        return {
          kind: 'inlayHints',
          hints: [{ position: range.start, label: [{ value: `: typeof import("${abs('src/b')}")`, tooltip: abs('src/b.ts'), location }] }],
          meta,
        }
      default:
        return { kind: 'locations', locations: [location], meta }
    }
  }

  async function service() {
    const lsp = createLsp()
    const provider = staticProvider(
      'p',
      { '.ts': 'typescript' },
      {
        operations: [
          'definition',
          'hover',
          'prepareCallHierarchy',
          'incomingCalls',
          'documentSymbols',
          'workspaceSymbols',
          'diagnostics',
          'signatureHelp',
          'completion',
          'inlayHints',
        ],
        answer,
      },
    )
    lsp.registerProvider(provider)
    return { lsp, provider }
  }

  it('names, details, hover, messages, labels and documentation become workspace-relative', async () => {
    const { lsp } = await service()
    const at = { root, path: 'src/a.ts', position: { line: 0, character: 0 } }
    const hover = await lsp.query({ operation: 'hover', ...at })
    expect(hover.hover?.contents).toBe('module "src/telemetry"\n[link](src/a.ts#L1)')
    const prepared = await lsp.query({ operation: 'prepareCallHierarchy', ...at })
    expect(prepared.items[0]).toEqual({ ...moduleItem, name: 'src/x.test.ts', detail: 'in src' })
    const incoming = await lsp.query({ operation: 'incomingCalls', root, item: prepared.items[0]! })
    expect(incoming.calls[0]?.item.name).toBe('src/x.test.ts')
    const outline = await lsp.query({ operation: 'documentSymbols', root, path: 'src/a.ts' })
    expect(outline.symbols[0]).toMatchObject({ name: '"src/m"', detail: 'src/m.ts', children: [{ detail: 'from src/n.ts' }] })
    const diagnostics = await lsp.query({ operation: 'diagnostics', root, path: 'src/a.ts' })
    expect(diagnostics.files[0]?.diagnostics[0]).toMatchObject({
      message: 'Cannot use import("src/b")',
      related: [{ location, message: 'declared in src/b.ts' }],
    })
    const help = await lsp.query({ operation: 'signatureHelp', ...at })
    const signature = help.signatureHelp?.signatures[0]
    expect(signature).toEqual({
      label: 'f(m: typeof import("src/b"))',
      documentation: 'see README.md',
      parameters: [{ label: 'm: typeof import("src/b")' }],
    })
    expect(signature?.label).toContain(signature?.parameters[0]?.label)
    const completion = await lsp.query({ operation: 'completion', ...at })
    // Insert texts are code: never rewritten.
    expect(completion.items[0]).toEqual({ label: 'b', detail: 'module "src/b"', documentation: 'src/b.ts', insertText: abs('src/b.ts') })
    const hints = await lsp.query({ operation: 'inlayHints', root, path: 'src/a.ts' })
    expect(hints.hints[0]?.label).toEqual([{ value: ': typeof import("src/b")', tooltip: 'src/b.ts', location }])
  })

  it('leaves the structural fields alone: path, uri, provider data, coverage paths, locations', async () => {
    const { lsp } = await service()
    const prepared = await lsp.query({ operation: 'prepareCallHierarchy', root, path: 'src/a.ts', position: { line: 0, character: 0 } })
    expect(prepared.items[0]).toMatchObject({ uri: moduleItem.uri, path: moduleItem.path, data: moduleItem.data })
    const diagnostics = await lsp.query({ operation: 'diagnostics', root, path: 'src/a.ts' })
    expect(diagnostics.files[0]).toMatchObject({ uri: uri('src/a.ts'), path: abs('src/a.ts') })
    expect(diagnostics.coverage.analysed).toEqual([abs('src/a.ts')])
    const definition = await lsp.query({ operation: 'definition', root, path: 'src/a.ts', position: { line: 0, character: 0 } })
    expect(definition.locations).toEqual([location])
  })

  it('a different root leaves the text alone (only paths under the request root are rewritten)', async () => {
    const { lsp } = await service()
    const other = '/tmp/rootX'
    const hover = await lsp.query({ operation: 'hover', root: other, path: 'src/a.ts', position: { line: 0, character: 0 } })
    expect(hover.hover?.contents).toBe(`module "${abs('src/telemetry')}"\n[link](${uri('src/a.ts')}#L1)`)
  })

  it('fan-out failure messages are rewritten too', async () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ok', { '.ts': 'typescript' }, { operations: ['workspaceSymbols'] }))
    lsp.registerProvider(
      staticProvider(
        'broken',
        { '.py': 'python' },
        {
          operations: ['workspaceSymbols'],
          answer: () => {
            throw new Error(`no interpreter for ${abs('app')}`)
          },
        },
      ),
    )
    const result = await lsp.query({ operation: 'workspaceSymbols', root, query: 'x' })
    expect(result.meta.failures?.[0]?.message).toMatch(/no interpreter for app$/)
  })
})

describe('workspace symbols carry no duplicates', () => {
  const range = { start: { line: 3, character: 16 }, end: { line: 3, character: 21 } }
  const symbol = (name: string, path: string, overrides: Partial<LspWorkspaceSymbol> = {}): LspWorkspaceSymbol => ({
    name,
    kind: 'function',
    location: { uri: pathToFileURL(`${root}/${path}`).href, path: `${root}/${path}`, range },
    ...overrides,
  })

  it('within one provider answer, and across the answers of a fan-out; distinct symbols stay', async () => {
    const lsp = createLsp()
    const shared = symbol('track', 'src/telemetry.ts')
    const ts = [
      shared,
      symbol('track', 'src/telemetry.ts'),
      symbol('track', 'src/telemetry.ts', { kind: 'variable' }),
      symbol('track', 'src/other.ts'),
      symbol('tracker', 'src/telemetry.ts'),
      symbol('track', 'src/telemetry.ts', {
        location: { ...shared.location, range: { start: { line: 9, character: 0 }, end: { line: 9, character: 5 } } },
      }),
    ]
    lsp.registerProvider(
      staticProvider(
        'ts',
        { '.ts': 'typescript' },
        { operations: ['workspaceSymbols'], answer: () => ({ kind: 'workspaceSymbols', symbols: ts, meta: resultMeta('ts') }) },
      ),
    )
    lsp.registerProvider(
      staticProvider(
        'other',
        { '.py': 'python' },
        {
          operations: ['workspaceSymbols'],
          answer: () => ({
            kind: 'workspaceSymbols',
            symbols: [symbol('track', 'src/telemetry.ts'), symbol('greet', 'app/a.py')],
            meta: resultMeta('other'),
          }),
        },
      ),
    )
    const result = await lsp.query({ operation: 'workspaceSymbols', root, query: 'track' })
    expect(
      result.symbols.map((s) => `${s.name}:${s.kind}:${nodePath.relative(root, s.location.path)}:${s.location.range.start.line}`),
    ).toEqual([
      'track:function:src/telemetry.ts:3',
      'track:variable:src/telemetry.ts:3',
      'track:function:src/other.ts:3',
      'tracker:function:src/telemetry.ts:3',
      'track:function:src/telemetry.ts:9',
      'greet:function:app/a.py:3',
    ])
  })

  it('a fan-out keeps what each answer dropped: the counts summed, the library locations named once', async () => {
    const lsp = createLsp()
    const goroot = { path: '/usr/lib/go/src/fmt/print.go', range, library: 'Go standard library' }
    lsp.registerProvider(
      staticProvider(
        'go',
        { '.go': 'go' },
        {
          operations: ['workspaceSymbols'],
          answer: () => ({
            kind: 'workspaceSymbols',
            symbols: [symbol('track', 'src/a.go')],
            meta: { ...resultMeta('go'), droppedOutsideWorkspace: 2, libraryLocations: [goroot] },
          }),
        },
      ),
    )
    lsp.registerProvider(
      staticProvider(
        'rs',
        { '.rs': 'rust' },
        {
          operations: ['workspaceSymbols'],
          answer: () => ({
            kind: 'workspaceSymbols',
            symbols: [symbol('track', 'src/a.rs')],
            meta: { ...resultMeta('rs'), droppedOutsideWorkspace: 3, libraryLocations: [goroot] },
          }),
        },
      ),
    )
    const result = await lsp.query({ operation: 'workspaceSymbols', root, query: 'track' })
    expect(result.symbols).toHaveLength(2)
    expect(result.meta.droppedOutsideWorkspace).toBe(5)
    expect(result.meta.libraryLocations).toEqual([goroot])
  })
})
