import {
  createLsp,
  LspError,
  type LspProvider,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultMeta,
  type LspSearchCoverage,
  type LspService,
} from '@codeseam/lsp'
import { createMemoryWorkspace } from '@codeseam/lsp/testing'
import { describe, expect, it } from 'vitest'

import { callTool, toMcpTool, toolContext, type AnyTool, type ToolOutcome } from '../src/index.js'
import { codeDiagnostics } from '../src/diagnostics.js'
import { codeHierarchy } from '../src/hierarchy.js'
import { codeNavigate } from '../src/navigation.js'
import { codeStatus } from '../src/status.js'
import { codeSymbols } from '../src/symbols.js'
import { installHint } from '../src/targeting.js'
import { validateDraft07 } from './support/schema-rules.js'
import { createToyProvider, lineOf } from './support/toy-provider.js'

/**
 * How the tools tell a model that a workspace-wide answer did not search everything (`meta.coverage`, fan-out
 * failures, roots whose query failed), with results built by hand over toy workspaces.
 */

const app = ['fn greet(name) {', '  print(name)', '}', 'fn main() {', '  greet("a")', '}', ''].join('\n')
const lib = ['fn greet_all() {', '  greet("b")', '}', ''].join('\n')

/** Per root: files, an error its queries fail with, and what to add to the meta of its workspace-wide answers. */
interface RootSpec {
  readonly files: Record<string, string>
  readonly fail?: LspError
  readonly meta?: Partial<LspResultMeta>
}

const workspaceWide = new Set<LspQueryRequest['operation']>(['references', 'implementation', 'incomingCalls', 'workspaceSymbols', 'rename'])

/** A service over several toy roots (`/virtual/<id>`); one toy provider per root behind one provider id. */
function service(roots: Record<string, RootSpec>, extra: ReadonlyArray<LspProvider> = []): LspService {
  const lsp = createLsp()
  const byRoot = new Map<string, { provider: LspProvider; spec: RootSpec }>()
  for (const [id, spec] of Object.entries(roots)) {
    const workspace = createMemoryWorkspace({ id, root: `/virtual/${id}`, files: spec.files })
    lsp.registerWorkspace(workspace)
    byRoot.set(workspace.root, { provider: createToyProvider(workspace, { operations: [] }), spec })
  }
  const first = [...byRoot.values()][0]!.provider
  lsp.registerProvider({
    id: 'toy',
    extensions: first.extensions,
    operations: [
      'definition',
      'references',
      'implementation',
      'documentSymbols',
      'workspaceSymbols',
      'prepareCallHierarchy',
      'incomingCalls',
      'outgoingCalls',
      'diagnostics',
    ],
    status: () => [],
    query: (async (request: LspQueryRequest, signal: AbortSignal) => {
      const entry = byRoot.get(request.root)!
      if (entry.spec.fail !== undefined && (request.operation === 'workspaceSymbols' || request.operation === 'diagnostics'))
        throw entry.spec.fail
      // The toy has no implementation: the references answer stands in for it.
      const asked = request.operation === 'implementation' ? { ...request, operation: 'references' as const } : request
      const result = await (entry.provider.query as (r: LspQueryRequest, s: AbortSignal) => Promise<LspQueryResult>)(asked, signal)
      return workspaceWide.has(request.operation) ? { ...result, meta: { ...result.meta, ...entry.spec.meta } } : result
    }) as LspProvider['query'],
  })
  for (const provider of extra) lsp.registerProvider(provider)
  return lsp
}

async function run(lsp: LspService, tool: AnyTool, args: unknown): Promise<ToolOutcome> {
  const outcome = await callTool(tool, args, toolContext(lsp))
  if (outcome.ok) expect(validateDraft07(toMcpTool(tool).outputSchema, outcome.structured)).toEqual([])
  return outcome
}

function ok(outcome: ToolOutcome): Record<string, any> {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.structured
}

const partial: LspSearchCoverage = {
  projectsSearched: 3,
  projectsFound: 5,
  filesNotSearched: 12,
  rootsNotSearched: ['examples/a', '.'],
  complete: false,
}
const partialText =
  'searched 3 of 5 projects; 12 files in no project were not searched (over the open-document limit: raise limits.maxOpenDocuments); ' +
  'not searched: app/examples/a, app (every language server busy under limits.maxServers)'
const complete: LspSearchCoverage = { projectsSearched: 5, projectsFound: 5, complete: true }

describe('search coverage in tool answers', () => {
  const greet = { path: 'src/app.toy', line: lineOf(app, 'fn greet'), matchText: 'greet' }

  it('code_navigate references and implementation say what was not searched', async () => {
    for (const kind of ['references', 'implementation']) {
      const outcome = await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: partial } } }), codeNavigate, {
        target: greet,
        kind,
      })
      const result = ok(outcome)
      expect(result.totalFound).toBe(2)
      expect(result.notice).toBe(`${partialText}.`)
      expect(outcome.text).toContain(`notice: ${partialText}.`)
    }
  })

  it('complete coverage adds no text', async () => {
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: complete } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(result.notice).toBeUndefined()
  })

  it('an answer over the projects that can reference the target says how many those were, of all (RFC 0035)', async () => {
    const reaching: LspSearchCoverage = {
      projectsSearched: 2,
      projectsFound: 102,
      searched: { kind: 'projectsReachingTarget', projects: 2 },
      complete: true,
    }
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: reaching } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(result.notice).toBe(
      'searched the 2 projects that can reference the target, of 102 (the others cannot; they load in the background).',
    )
  })

  it('an answer over every project and the files of no project that can reference the target says so (RFC 0035, amended)', async () => {
    const everyProject: LspSearchCoverage = {
      projectsSearched: 102,
      projectsFound: 102,
      searched: { kind: 'projectsReachingTarget', projects: 102 },
      complete: true,
    }
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: everyProject } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(result.notice).toBe(
      'searched every project (102) and the files of no project that can reference the target (the others cannot).',
    )
  })

  it('only the parts that are short are named', async () => {
    const projectsOnly = { projectsSearched: 1, projectsFound: 2, complete: false }
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: projectsOnly } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(result.notice).toBe('searched 1 of 2 projects.')
    const filesOnly = { projectsSearched: 1, projectsFound: 1, filesNotSearched: 1, complete: false }
    const files = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: filesOnly } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(files.notice).toBe('1 file in no project was not searched (over the open-document limit: raise limits.maxOpenDocuments).')
  })

  it('files over a per-file limit are counted as skipped, by limit', async () => {
    const skipped: LspSearchCoverage = {
      projectsSearched: 1,
      projectsFound: 1,
      filesSkipped: [
        { limit: 'maxFileBytes', count: 2, ceiling: 4 * 1024 * 1024 },
        { limit: 'binary', count: 1 },
        { limit: 'maxLineLength', count: 1, ceiling: 10_000 },
      ],
      complete: false,
    }
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: skipped } } }), codeNavigate, {
        target: greet,
        kind: 'references',
      }),
    )
    expect(result.notice).toBe(
      '2 files skipped: over 4 MB (limits.maxFileBytes); 1 file skipped: binary content; ' +
        '1 file skipped: a line over 10000 characters, minified (limits.maxLineLength).',
    )
  })

  it('code_hierarchy callers (incoming calls) says so', async () => {
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app }, meta: { coverage: partial } } }), codeHierarchy, {
        target: { path: 'src/app.toy', symbol: 'greet' },
        kind: 'callers',
      }),
    )
    expect(result.direct.map((d: any) => d.name)).toEqual(['main'])
    expect(result.notice).toBe(`${partialText}.`)
  })

  it('code_symbols search says so, once per gap, over every root', async () => {
    const lsp = service({
      app: {
        files: { 'src/app.toy': app },
        meta: { coverage: { projectsSearched: 1, projectsFound: 2, rootsNotSearched: ['examples/a'], complete: false } },
      },
      lib: {
        files: { 'src/lib.toy': lib },
        meta: { coverage: { projectsSearched: 0, projectsFound: 1, rootsNotSearched: ['.'], complete: false } },
      },
    })
    const outcome = await run(lsp, codeSymbols, { query: 'greet' })
    const result = ok(outcome)
    expect(result.matches.map((m: any) => `${m.rootId}:${m.name}`).sort()).toEqual(['app:greet', 'lib:greet_all'])
    // Matches from several roots name their root in the text.
    expect(outcome.text).toContain(`function greet  src/app.toy:${lineOf(app, 'fn greet')}:4  (root app)`)
    expect(result.notice).toBe(
      'searched 1 of 3 projects; not searched: app/examples/a, lib (every language server busy under limits.maxServers). To search one root, pass its rootId.',
    )
  })
})

describe('code_symbols over several roots when a root fails', () => {
  it("keeps the other roots' symbols and names the failed root with its code and reason", async () => {
    const lsp = service({
      app: { files: { 'src/app.toy': app } },
      lib: {
        files: { 'src/lib.toy': lib },
        fail: new LspError('TIMEOUT', 'the toy server for /virtual/lib did not answer within 30 s\nstderr: nothing'),
      },
    })
    const outcome = await run(lsp, codeSymbols, { query: 'greet' })
    const result = ok(outcome)
    expect(result.matches.map((m: any) => `${m.rootId}:${m.path}:${m.line}`)).toEqual([`app:src/app.toy:${lineOf(app, 'fn greet')}`])
    // The reason is workspace-relative and one line.
    expect(result.notice).toBe('not searched: lib (TIMEOUT: the toy server for . did not answer within 30 s).')
    expect(result.readiness.status).toBe('degraded')
    expect(outcome.text).toContain('notice: not searched: lib (TIMEOUT:')
  })

  it('a root that failed because every server was busy is named as such', async () => {
    const busy = new LspError(
      'UNAVAILABLE',
      '2 language servers are already busy (limits.maxServers): retry when one finishes, or raise maxServers',
      { data: { maxServers: 2 } },
    )
    const lsp = service({ app: { files: { 'src/app.toy': app } }, lib: { files: { 'src/lib.toy': lib }, fail: busy } })
    const result = ok(await run(lsp, codeSymbols, { query: 'greet' }))
    expect(result.notice).toBe(
      'not searched: lib (every language server busy under limits.maxServers). To search one root, pass its rootId.',
    )
  })

  it("fails with the first root's error when every root fails (never an empty answer)", async () => {
    const lsp = service({
      app: { files: { 'src/app.toy': app }, fail: new LspError('SERVER_CRASHED', 'the toy server crashed') },
      lib: { files: { 'src/lib.toy': lib }, fail: new LspError('TIMEOUT', 'too slow') },
    })
    const outcome = await run(lsp, codeSymbols, { query: 'greet' })
    expect(outcome.ok === false && outcome.error).toMatchObject({ code: 'SERVER_CRASHED', message: 'the toy server crashed' })
  })

  it('a root whose server had just started and found nothing is named, even when other roots found symbols', async () => {
    const lsp = service({ app: { files: { 'src/app.toy': app } }, lib: { files: { 'src/lib.toy': lib }, meta: { warm: false } } })
    const result = ok(await run(lsp, codeSymbols, { query: 'main' }))
    expect(result.matches.map((m: any) => m.rootId)).toEqual(['app'])
    expect(result.notice).toBe(
      'the language server had just started and found no symbols in lib; that may mean the project was not loaded yet, so ask again before concluding there are none there.',
    )
    // A cold root that found something needs no such note.
    const found = ok(await run(lsp, codeSymbols, { query: 'greet' }))
    expect(found.notice).toBeUndefined()
  })

  it('a cancelled root cancels the call', async () => {
    const lsp = service({
      app: { files: { 'src/app.toy': app } },
      lib: { files: { 'src/lib.toy': lib }, fail: new LspError('CANCELLED', 'cancelled') },
    })
    const outcome = await run(lsp, codeSymbols, { query: 'greet' })
    expect(outcome.ok === false && outcome.error.code).toBe('CANCELLED')
  })

  it('code_diagnostics over the workspace does the same', async () => {
    const lsp = service({
      app: { files: { 'src/app.toy': `${app}# TODO finish\n` } },
      lib: { files: { 'src/lib.toy': lib }, fail: new LspError('TIMEOUT', 'too slow') },
    })
    const result = ok(await run(lsp, codeDiagnostics, {}))
    expect(result.counts.warning).toBe(1)
    expect(result.coverage.complete).toBe(false)
    expect(result.notice).toMatch(/^not searched: lib \(TIMEOUT: too slow\)\./)
    const all = service({ app: { files: { 'src/app.toy': app }, fail: new LspError('TIMEOUT', 'too slow') } })
    const failed = await run(all, codeDiagnostics, {})
    expect(failed.ok === false && failed.error.code).toBe('TIMEOUT')
    const unknown = await run(all, codeDiagnostics, { rootId: 'nope' })
    expect(unknown.ok === false && unknown.error.code).toBe('NOT_FOUND')
  })
})

describe('fan-out failures', () => {
  /** A second provider in the fan-out (Python files) that always fails workspace symbols with `error`. */
  function failing(error: LspError): LspProvider {
    return {
      id: 'local:pyright',
      extensions: { '.py': 'python' },
      operations: ['workspaceSymbols'],
      query: async () => {
        throw error
      },
    }
  }

  it('a server that could not start because every slot was busy is a gap, not a missing install', async () => {
    const busy = new LspError(
      'UNAVAILABLE',
      '2 language servers are already busy (limits.maxServers): retry when one finishes, or raise maxServers',
    )
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app, 'py/x.py': '' } } }, [failing(busy)]), codeSymbols, { query: 'greet' }),
    )
    expect(result.notice).toBe('not searched: pyright for app (every language server busy under limits.maxServers).')
    expect(result.notice).not.toMatch(/no server installed/)
    expect(result.readiness.status).toBe('degraded')
  })

  it('a server that is not installed is named as such, and the answer stays ready', async () => {
    const missing = new LspError('UNAVAILABLE', 'the pyright language server is unavailable: install pyright')
    const result = ok(
      await run(service({ app: { files: { 'src/app.toy': app, 'py/x.py': '' } } }, [failing(missing)]), codeSymbols, { query: 'greet' }),
    )
    expect(result.notice).toBe('not covered, no server installed: pyright (install pyright).')
    expect(result.readiness.status).toBe('ready')
  })
})

describe('code_status', () => {
  it("shows workspaces by id only, and each server's projects when known", async () => {
    const lsp = createLsp()
    const workspace = createMemoryWorkspace({ id: 'demo', root: '/virtual/demo', files: { 'src/app.toy': app } })
    lsp.registerWorkspace(workspace)
    const toy = createToyProvider(workspace)
    lsp.registerProvider({
      ...toy,
      status: () => [
        {
          providerId: 'toy',
          root: workspace.root,
          server: 'typescript',
          state: 'ready',
          languages: ['toy'],
          projects: { loaded: 28, found: 28 },
        },
        { providerId: 'toy', server: 'other', state: 'idle', languages: ['toy'] },
      ],
    })
    const outcome = await run(lsp, codeStatus, {})
    const result = ok(outcome)
    expect(result.workspaces).toEqual([{ id: 'demo' }])
    expect(result.servers.find((s: any) => s.server === 'typescript')).toMatchObject({
      rootId: 'demo',
      projects: { loaded: 28, found: 28 },
    })
    expect(result.servers.find((s: any) => s.server === 'other').projects).toBeUndefined()
    expect(outcome.text).toContain('workspaces: demo\n')
    expect(outcome.text).toContain('typescript @ demo: ready, 28/28 projects  .toy')
    expect(outcome.text).not.toContain('/virtual/demo')
  })
})

describe('install hints', () => {
  it('languages a backend builds in get no hand-written advice (it comes from the backend); others do', () => {
    for (const path of ['a.c', 'a.cpp', 'a.go', 'a.rs'])
      expect(installHint(path)).toBe(`configure a language server profile for "${path.slice(1)}" files`)
    expect(installHint('a.php')).toMatch(/intelephense/)
  })
})
