import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspQueryResult } from '@codeseam/lsp'
import { afterEach, describe, expect, test } from 'vitest'

import { createLocalHost } from '../src/index.js'
import { calleesFirst, localModuleCalls } from '../src/languages/terraform-ls/module-calls.js'
import { terraformModuleFiles } from '../src/languages/terraform-ls/project-model.js'
import { terraformLsRecord } from '../src/languages/terraform-ls/record.js'

/*
 * terraform-ls asked cold (a loaded CI: references and definition of a root module's variables answered `[]`). v0.39
 * runs an open folder's jobs and a closed folder's on two workers; a module called by a folder opened before it is
 * parsed on the closed folders' worker, and once it is opened, its metadata may be read on the other worker before
 * that parse ends: the module keeps no variables, and no use of them is ever found. codeseam opens every called
 * folder before its callers (module-calls.ts).
 */

const located = await terraformLsRecord.locate()
const missing = located.found ? undefined : located.why
if (missing !== undefined && process.env['CI'] === 'true')
  test('terraform-ls is installed', () => expect(missing, 'under CI=true it must be').toBeUndefined())

const workspaces: Array<() => void> = []
afterEach(() => {
  for (const remove of workspaces.splice(0)) remove()
})

function write(root: string, file: string, text: string): void {
  mkdirSync(nodePath.dirname(nodePath.join(root, file)), { recursive: true })
  writeFileSync(nodePath.join(root, file), text)
}

/**
 * A root module with `variables` variables (a long parse) and `callers` examples calling it (`examples/eN`, whose paths
 * sort before the root's own files: in path order the callers were opened first).
 */
function calledModule(variables: number, callers: number): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-terraform-cold-')))
  workspaces.push(() => rmSync(root, { recursive: true, force: true }))
  const declarations = Array.from(
    { length: variables },
    (_, i) => `variable "v${i}" {\n  type        = string\n  default     = "d${i}"\n  description = "variable ${i}"\n}\n`,
  )
  write(root, 'variables.tf', declarations.join('\n'))
  write(root, 'main.tf', 'locals {\n  first = var.v0\n}\n')
  for (let i = 0; i < callers; i++) write(root, `examples/e${i}/main.tf`, `module "root" {\n  source = "../../"\n  v0     = "e${i}"\n}\n`)
  return root
}

/** `path:line:character` (1-based) of each match of `pattern`'s first group. */
function sites(root: string, file: string, pattern: RegExp): string[] {
  const text = readFileSync(nodePath.join(root, file), 'utf8')
  return [...text.matchAll(pattern)].map((m) => {
    const before = text.slice(0, (m.index ?? 0) + m[0].indexOf(m[1] ?? '')).split('\n')
    return `${file}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`
  })
}

const position = (site: string) => {
  const [line, character] = site.split(':').slice(-2).map(Number)
  return { line: (line ?? 1) - 1, character: (character ?? 1) - 1 }
}

const keys = (root: string, answer: LspQueryResult, withCharacter = true) =>
  answer.kind === 'locations'
    ? answer.locations
        .map((l) => {
          const at = `${nodePath.relative(root, l.path).split(nodePath.sep).join('/')}:${l.range.start.line + 1}`
          return withCharacter ? `${at}:${l.range.start.character + 1}` : at
        })
        .sort()
    : [`!${answer.kind}`]

describe('module folders: every called one opened before its callers', () => {
  test('local module sources, resolved; registry and remote sources are not folders', () => {
    const folder = '/ws/examples/complete'
    const text = [
      'module "a" {\n  source = "../../"\n}',
      'module "b" {\n  source  = "../../modules/object"\n}',
      'module "c" {\n  source = "./nested"\n}',
      'module "d" {\n  source = "terraform-aws-modules/vpc/aws"\n}',
      'module "e" {\n  source = "git::https://example.com/x.git"\n}',
    ].join('\n')
    expect(localModuleCalls(folder, [text]).sort()).toEqual(['/ws', '/ws/examples/complete/nested', '/ws/modules/object'])
  })

  test('callees first, a cycle broken where it closes', () => {
    const calls = new Map([
      ['/ws/examples/object', ['/ws/modules/object', '/ws']],
      ['/ws/wrappers/object', ['/ws/modules/object']],
      ['/ws/a', ['/ws/b']],
      ['/ws/b', ['/ws/a']],
    ])
    const order = calleesFirst(['/ws/a', '/ws/b', '/ws/examples/object', '/ws/modules/object', '/ws/wrappers/object', '/ws'], calls)
    expect(order.indexOf('/ws')).toBeLessThan(order.indexOf('/ws/examples/object'))
    expect(order.indexOf('/ws/modules/object')).toBeLessThan(order.indexOf('/ws/examples/object'))
    expect(order.indexOf('/ws/modules/object')).toBeLessThan(order.indexOf('/ws/wrappers/object'))
    expect(order.toSorted()).toEqual(['/ws', '/ws/a', '/ws/b', '/ws/examples/object', '/ws/modules/object', '/ws/wrappers/object'])
  })

  test('the files the project model opens: the called root module before the examples that sort first', async () => {
    const root = calledModule(2, 3)
    const files = ['examples/e0/main.tf', 'examples/e1/main.tf', 'examples/e2/main.tf', 'main.tf', 'variables.tf']
    const opened = await terraformModuleFiles(files.map((file) => nodePath.join(root, file)))
    expect(opened.map((file) => nodePath.relative(root, file).split(nodePath.sep).join('/'))).toEqual([
      'main.tf',
      'examples/e0/main.tf',
      'examples/e1/main.tf',
      'examples/e2/main.tf',
    ])
  })
})

describe.skipIf(missing !== undefined)('terraform-ls asked cold, right after the start, on a fresh workspace', () => {
  // Thousands of variables make the root module's parse long enough for the two workers to overlap (in path order,
  // about every other start on a loaded machine lost the callers' uses, or every use).
  const variables = 3_000
  const callers = 8

  async function cold<T>(root: string, ask: (lsp: ReturnType<typeof createLsp>) => Promise<T>): Promise<T> {
    const host = await createLocalHost()
    const lsp = createLsp()
    try {
      await host.attach(lsp, [{ root, trust: 'untrusted' }])
      return await ask(lsp)
    } finally {
      await lsp.dispose()
      await host.dispose()
    }
  }

  test('references of a root module variable: every use, in the module and in each caller', { timeout: 180_000 }, async () => {
    const root = calledModule(variables, callers)
    const declaration = sites(root, 'variables.tf', /^variable "(v0)"/gm)[0]!
    const expected = [
      ...sites(root, 'main.tf', /(var\.v0)\b/g),
      ...Array.from({ length: callers }, (_, i) => sites(root, `examples/e${i}/main.tf`, /^\s*(v0)\s*=/gm)).flat(),
    ].sort()
    expect(expected).toHaveLength(callers + 1)
    const answer = await cold(root, (lsp) =>
      lsp.query({ operation: 'references', root, path: nodePath.join(root, 'variables.tf'), position: position(declaration) }),
    )
    expect(keys(root, answer)).toEqual(expected)
  })

  test(
    'definition of a caller’s module argument asked first: the called module’s variable, and every use of it after',
    { timeout: 180_000 },
    async () => {
      // A second start: the race is lost at the start whatever is asked first, and what was lost stays lost.
      const root = calledModule(variables * 4, callers)
      const last = `examples/e${callers - 1}/main.tf`
      const use = sites(root, last, /^\s*(v0)\s*=/gm)[0]!
      const declaration = sites(root, 'variables.tf', /^variable "(v0)"/gm)[0]!
      const [definition, references] = await cold(root, async (lsp) => [
        await lsp.query({ operation: 'definition', root, path: nodePath.join(root, last), position: position(use) }),
        await lsp.query({ operation: 'references', root, path: nodePath.join(root, 'variables.tf'), position: position(declaration) }),
      ])
      expect(keys(root, definition, false)).toEqual(['variables.tf:1'])
      expect(keys(root, references)).toHaveLength(callers + 1)
    },
  )
})
