// Kotlin through JDT LS's Kotlin plugin (issue 48): what it answers wrongly for Kotlin files is refused, typed and
// said, while the same operations still answer for the Java files of the same project and Kotlin's outline answers.
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck } from './helpers.js'

const fixture = fileURLToPath(new URL('../../lsp/fixtures/conformance-kotlin', import.meta.url))
const sources = 'src/main/java/com/example/conf'

describe('Kotlin files on JDT LS', async () => {
  const why = (await builtinProfiles()).find((p) => p.id === 'jdtls')?.unavailable
  if (why !== undefined && process.env['CI'] !== 'true') {
    console.log(`SKIPPED the Kotlin tests: ${why}`)
    test.skip(`jdtls: ${why}`, () => {})
    return
  }
  const leaks = new LeakCheck()
  let root: string
  let host: LocalHost
  let lsp: LspService
  beforeAll(async () => {
    expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
    root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-kotlin-')))
    cpSync(fixture, root, { recursive: true })
    host = await createLocalHost()
    lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'untrusted' }])
  })
  afterAll(async () => {
    await leaks.record()
    await lsp?.dispose()
    await host?.dispose()
    rmSync(root, { recursive: true, force: true })
    expect(await leaks.survivors()).toEqual([])
  })

  test('formatting a .kt file is refused, saying why; a .java file of the same project is formatted', { timeout: 180_000 }, async () => {
    await expect(lsp.query({ operation: 'format', root, path: `${sources}/Report.kt` })).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
      message: expect.stringMatching(/format for kotlin files: .*Java formatter/),
    })
    const java = await lsp.query({ operation: 'format', root, path: `${sources}/Units.java` })
    expect(java.kind).toBe('workspaceEdit')
  })

  test('diagnostics of a .kt file are refused (nothing checks it), never an empty "clean" list', { timeout: 120_000 }, async () => {
    await expect(lsp.query({ operation: 'diagnostics', root, path: `${sources}/Report.kt` })).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
      message: expect.stringMatching(/no Kotlin compiler/),
    })
  })

  test("a .kt file's outline answers", { timeout: 120_000 }, async () => {
    const outline = await lsp.query({ operation: 'documentSymbols', root, path: `${sources}/Circle.kt` })
    expect(outline.symbols.map((s) => s.name)).toContain('Circle')
  })
})
