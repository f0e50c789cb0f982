import { readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, expect, test } from 'vitest'
import type { LocalHost } from '@codeseam/lsp-local'

import type { ApprovalRequest, MutationReceipt } from '../src/index.js'
import { openWorld, removeTestLocks, sharedHost, type World } from './harness.js'

/**
 * The example in docs/mutations.md is a real run: this test performs it against the native TypeScript
 * server and checks the documented receipt has exactly the shape of a fresh one. With
 * CODESEAM_CAPTURE_DOCS=1 it rewrites the example in the document from the run.
 */

const docsPath = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '../../../docs/mutations.md')
const start = '<!-- example:start -->'
const end = '<!-- example:end -->'

let host: LocalHost
let world: World | undefined
beforeAll(async () => {
  host = await sharedHost()
})
afterAll(async () => {
  await world?.dispose()
  await host.dispose()
  removeTestLocks()
})

/** Every key path of a JSON value (array items merged), to compare shapes, not values. */
function shape(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => shape(item, `${prefix}[]`)))]
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [`${prefix}.${key}`, ...shape(inner, `${prefix}.${key}`)])
  }
  return []
}

test('the documented approval request and receipt come from a real run', async () => {
  let request: ApprovalRequest | undefined
  world = await openWorld(host, 'ts', {
    approve: (asked) => {
      request = asked
      return 'approve'
    },
  })
  const outcome = await world.call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'circleArea' }, newName: 'circleSurface' })
  if (!outcome.ok) throw new Error(outcome.error.message)
  const receipt = JSON.parse(JSON.stringify(outcome.structured.receipt).replaceAll(world.root, '/path/to/project')) as MutationReceipt
  expect(receipt.status).toBe('applied')
  expect(request?.preview.counts.files).toBe(3)
  // A second run in the same project: a person says no.
  let denied: World | undefined
  let deniedText = ''
  try {
    denied = await openWorld(host, 'ts', { approve: () => ({ decision: 'deny', reason: 'keep the old signature' }) })
    const refused = await denied.call('code_replace', {
      target: { path: 'src/shapes.ts', symbol: 'defaultScale' },
      text: 'export const defaultScale = 3;',
    })
    if (refused.ok) throw new Error('expected a denial')
    expect(refused.error.code).toBe('APPROVAL_DENIED')
    deniedText = `error.code: ${refused.error.code}\n\n${refused.text.replaceAll(denied.root, '/path/to/project')}`
  } finally {
    await denied?.dispose()
  }
  const block = [
    start,
    '',
    'What the approval callback was asked (abridged to its summary and counts):',
    '',
    '```json',
    JSON.stringify(
      { tool: request?.tool, summary: request?.summary, explicitReasons: request?.explicitReasons, counts: request?.preview.counts },
      null,
      2,
    ),
    '```',
    '',
    'The receipt (`structured.receipt` of the tool result):',
    '',
    '```json',
    JSON.stringify(receipt, null, 2),
    '```',
    '',
    'The text a model reads (`text` of the tool result):',
    '',
    '```text',
    outcome.text.replaceAll(world.root, '/path/to/project'),
    '```',
    '',
    "A denied change (`code_replace` of `defaultScale`, the callback answered `{ decision: 'deny', reason: 'keep the old signature' }`): the tool fails with `APPROVAL_DENIED`, nothing is written, and the receipt (in `error.data.receipt`) says so. The text a model reads:",
    '',
    '```text',
    deniedText.replace(/tx_[a-z0-9]+_[0-9a-f]+/g, (id) => id),
    '```',
    '',
    end,
  ].join('\n')
  const docs = readFileSync(docsPath, 'utf8')
  const from = docs.indexOf(start)
  const to = docs.indexOf(end)
  expect(from).toBeGreaterThanOrEqual(0)
  if (process.env.CODESEAM_CAPTURE_DOCS === '1') {
    writeFileSync(docsPath, docs.slice(0, from) + block + docs.slice(to + end.length))
    return
  }
  const documented = /```json\n([\s\S]*?)\n```[\s\S]*?```json\n([\s\S]*?)\n```/.exec(docs.slice(from, to))
  expect(documented).not.toBeNull()
  const documentedReceipt = JSON.parse(documented![2]!) as unknown
  expect(shape(documentedReceipt).sort()).toEqual(shape(receipt).sort())
})
