// A file diagnostics result counts the related locations it dropped because they lie outside the root
// (the real typescript-language-server points "An argument for 'name' was not provided" at the declaration;
// the native server sends no related information here).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import { createLsp } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { typeScriptLanguageServerInstead } from './helpers.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'lsp-local-diag-meta-')))
const root = nodePath.join(base, 'root')
mkdirSync(root)
mkdirSync(nodePath.join(base, 'shared'))
writeFileSync(nodePath.join(base, 'shared', 'greet.ts'), 'export function greet(name: string): string {\n  return name\n}\n')
const main = nodePath.join(root, 'main.ts')
writeFileSync(main, "import { greet } from '../shared/greet'\n\nexport const greeting = greet()\n")
writeFileSync(
  nodePath.join(root, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' }, include: ['*.ts'] }),
)
let host: LocalHost | undefined
afterAll(async () => {
  await host?.dispose()
  rmSync(base, { recursive: true, force: true })
})

test('related locations outside the root are dropped and counted in meta.droppedOutsideWorkspace', { timeout: 180_000 }, async () => {
  host = await createLocalHost({ ...typeScriptLanguageServerInstead, requestTimeoutMs: 120_000 })
  const lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
  const result = await lsp.query({ operation: 'diagnostics', root, path: main, waitMs: 60_000 })
  const diagnostics = result.files.flatMap((file) => file.diagnostics)
  expect(
    diagnostics.some((d) => /argument/i.test(d.message)),
    JSON.stringify(diagnostics),
  ).toBe(true)
  for (const d of diagnostics)
    for (const related of d.related ?? []) expect(related.location.path.startsWith(root + nodePath.sep)).toBe(true)
  expect(result.meta.droppedOutsideWorkspace, JSON.stringify(result)).toBeGreaterThan(0)
})
