// codeseam's side of the type-hierarchy oracle: ONE cold host per workspace (default settings, untrusted root,
// as `codeseam mcp` starts), asked prepareTypeHierarchy at every declaration's name (found by text on the
// oracle's line), then supertypes and subtypes of the item; for Python, implementation at every overridden
// method. Each answer is normalised to the oracles' keys (heritage.ts).
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, type LspHierarchyItem, type LspPosition, type LspService } from '@codeseam/lsp'

import { createLocalHost } from '../../src/index.js'
import type { OracleLanguage } from '../oracle/oracle.js'
import { errorKey, relativePath } from '../oracle/seam.js'
import type { HeritageOracle } from './heritage.js'

export const hierarchyOperations = ['prepareTypeHierarchy', 'supertypes', 'subtypes', 'implementation'] as const
export type HierarchyOperation = (typeof hierarchyOperations)[number]

/** One question asked of codeseam: the oracle's keys against codeseam's, both sorted. */
export interface HierarchyComparison {
  readonly workspace: string
  readonly operation: HierarchyOperation
  /** `file:line Name` of the declaration (or method) asked about. */
  readonly target: string
  readonly expected: ReadonlyArray<string>
  readonly got: ReadonlyArray<string>
}

export const isEqual = (c: HierarchyComparison) => c.expected.length === c.got.length && c.expected.every((key, i) => key === c.got[i])

const sortedUnique = (keys: Iterable<string>) => [...new Set(keys)].sort()

/** The position of `name` on a 0-based line, found by text: after `keyword` when it is there, else its first whole-word match. */
export function namePosition(root: string, file: string, line: number, keyword: RegExp, name: string): LspPosition {
  const text = readFileSync(nodePath.join(root, file), 'utf8').split(/\r?\n/)[line] ?? ''
  const escaped = name.replace(/[$]/g, '\\$')
  const after = new RegExp(`${keyword.source}\\s+(${escaped})\\b`).exec(text)
  const character = after !== null ? after.index + after[0].length - name.length : new RegExp(`\\b${escaped}\\b`).exec(text)?.index
  if (character === undefined) throw new Error(`${name} is not on line ${line} of ${file}: ${text}`)
  return { line, character }
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: ReadonlyArray<T>, limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

export interface SeamHierarchyOptions {
  readonly workspace: string
  readonly root: string
  readonly language: OracleLanguage
  readonly oracle: HeritageOracle
  /** Questions in flight at once (the host queues per server; a few keep a slow answer from idling the rest). */
  readonly concurrency?: number
  /** Called while the host's servers run, before it is disposed (a leak check records them). */
  readonly beforeDispose?: () => Promise<void>
}

export async function compareHierarchy(options: SeamHierarchyOptions): Promise<HierarchyComparison[]> {
  const { root, workspace, oracle } = options
  const host = await createLocalHost()
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root }])
  const comparisons: HierarchyComparison[] = []
  const keyOf = (item: LspHierarchyItem) => `${relativePath(root, item.path)}:${item.selectionRange.start.line}`
  try {
    await pool(oracle.declarations, options.concurrency ?? 4, async (declaration) => {
      const target = `${declaration.key} ${declaration.name}`
      const push = (operation: HierarchyOperation, expected: ReadonlyArray<string>, got: ReadonlyArray<string>) =>
        comparisons.push({ workspace, operation, target, expected: sortedUnique(expected), got: sortedUnique(got) })
      const keyword = declaration.kind === 'interface' ? /\binterface/ : /\bclass/
      const position = namePosition(root, declaration.file, declaration.line, keyword, declaration.name)
      let item: LspHierarchyItem | undefined
      try {
        const { items } = await lsp.query({
          operation: 'prepareTypeHierarchy',
          root,
          path: nodePath.join(root, declaration.file),
          position,
        })
        item = items.find((candidate) => keyOf(candidate) === declaration.key)
        push('prepareTypeHierarchy', [declaration.key], items.map(keyOf))
      } catch (error) {
        push('prepareTypeHierarchy', [declaration.key], [errorKey(error)])
      }
      if (item === undefined) {
        push('supertypes', declaration.supertypes, ['!no item from prepareTypeHierarchy'])
        push('subtypes', declaration.subtypes, ['!no item from prepareTypeHierarchy'])
        return
      }
      push('supertypes', declaration.supertypes, await supertypes(lsp, root, item, keyOf))
      push('subtypes', declaration.subtypes, await subtypes(lsp, root, item, keyOf))
    })
    await pool(oracle.overrides, options.concurrency ?? 4, async (override) => {
      const position = namePosition(root, override.file, override.line, /\bdef/, override.method)
      let got: string[]
      try {
        const { locations } = await lsp.query({ operation: 'implementation', root, path: nodePath.join(root, override.file), position })
        got = locations.map((location) => `${relativePath(root, location.path)}:${location.range.start.line}`)
      } catch (error) {
        got = [errorKey(error)]
      }
      const target = `${override.key} ${override.name}`
      comparisons.push({
        workspace,
        operation: 'implementation',
        target,
        expected: sortedUnique(override.overriders),
        got: sortedUnique(got),
      })
    })
    await options.beforeDispose?.()
  } finally {
    await release()
    await lsp.dispose()
    await host.dispose()
  }
  return comparisons
}

async function supertypes(
  lsp: LspService,
  root: string,
  item: LspHierarchyItem,
  keyOf: (item: LspHierarchyItem) => string,
): Promise<string[]> {
  try {
    const { items, meta } = await lsp.query({ operation: 'supertypes', root, item })
    return [...items.map(keyOf), ...(meta.derived?.unresolved ?? []).map((name) => `?${name}`)]
  } catch (error) {
    return [errorKey(error)]
  }
}

async function subtypes(
  lsp: LspService,
  root: string,
  item: LspHierarchyItem,
  keyOf: (item: LspHierarchyItem) => string,
): Promise<string[]> {
  try {
    const { items } = await lsp.query({ operation: 'subtypes', root, item })
    return items.map(keyOf)
  } catch (error) {
    return [errorKey(error)]
  }
}
