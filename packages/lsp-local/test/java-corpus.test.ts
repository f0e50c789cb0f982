import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, positionOf } from './helpers.js'
import { measureBareFirstAnswer } from './java-bare.js'
import { dataFoldersOf, toolchainLaunch } from './oracle/oracle.js'
import { corporaFolder, unpackCorpus, type OracleWorkspace } from './oracle/workspaces.js'

/*
 * A public Java repository (the javapoet corpus: one Maven module, main and test sources) with default flags — an
 * untrusted root, the built-in JDT LS profile, as `codeseam mcp` starts after one `codeseam install java` (issue 48):
 * outline, cross-file definition and references answer, and after a plain write to disk (no editor, no
 * notification but the file system's) the references include the new call: answers reflect the disk at question
 * time. The completeness oracle (oracle/completeness-toolchains.test.ts) compares every operation with the bare
 * server; this is the short path a new user takes. Under CI=true a missing JDT LS or corpus fails; otherwise the
 * test is skipped, saying what to install. CODESEAM_JAVA_COLD_START=1 also measures the bare server's spawn → first
 * references on the same files, for the report.
 */

const inCI = process.env['CI'] === 'true'
const jdtls = (await builtinProfiles()).find((profile) => profile.id === 'jdtls')
const missing = [
  jdtls === undefined ? 'no built-in jdtls profile' : jdtls.unavailable,
  corporaFolder() === undefined ? '../shared/corpora is missing (or CODESEAM_CORPORA_DIR names no folder with unpack.sh)' : undefined,
].filter((why): why is string => why !== undefined)

const main = 'src/main/java/com/squareup/javapoet'
const test_ = 'src/test/java/com/squareup/javapoet'
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

if (missing.length > 0 && !inCI) {
  console.log(`SKIPPED the javapoet corpus test: ${missing.join('; ')}`)
  test.skip(`javapoet with default flags: ${missing.join('; ')}`, () => {})
} else {
  describe('javapoet (a public Maven repository) with default flags', () => {
    const leaks = new LeakCheck()
    let corpus: OracleWorkspace
    let root: string
    let host: LocalHost
    let lsp: LspService
    let started = 0
    const timings: string[] = []
    /** codeseam's Eclipse workspaces for this temporary root, in its cache: removed with the root. */
    let serverState: string[] = []

    beforeAll(async () => {
      expect(missing, 'under CI=true a missing JDT LS or corpus fails').toEqual([])
      corpus = unpackCorpus('javapoet')
      root = corpus.root
      serverState = dataFoldersOf(await toolchainLaunch(root, 'java', 'untrusted'))
      started = performance.now()
      host = await createLocalHost()
      lsp = createLsp()
      // Default flags: no trust given (untrusted), the built-in profile.
      await host.attach(lsp, [{ root }])
    }, 60_000)

    afterAll(async () => {
      await leaks.record()
      await host?.dispose()
      corpus?.remove()
      for (const folder of serverState) rmSync(folder, { recursive: true, force: true })
      console.log(`javapoet with default flags: ${timings.join('; ')}`)
      expect(await leaks.survivors()).toEqual([])
    }, 60_000)

    test('the outline names the types and methods as people write them', async () => {
      const path = nodePath.join(root, main, 'TypeSpec.java')
      const { symbols } = await lsp.query({ operation: 'documentSymbols', root, path })
      timings.push(`spawn → first answer (outline) ${seconds(performance.now() - started)}`)
      expect(lsp.providerFor(path)?.providerId).toBe('local:jdtls')
      const typeSpec = symbols.find((symbol) => symbol.name === 'TypeSpec')
      expect(typeSpec?.kind).toBe('class')
      const names = (typeSpec?.children ?? []).map((child) => child.name)
      expect(names).toEqual(expect.arrayContaining(['classBuilder', 'interfaceBuilder', 'toBuilder', 'Builder']))
    }, 180_000)

    test('definition crosses files: a constructor call in TypeSpec.java lands in CodeWriter.java', async () => {
      const at = positionOf(root, `${main}/TypeSpec.java`, 'new CodeWriter(out)', { offset: 'new '.length })
      const before = performance.now()
      const { locations } = await lsp.query({
        operation: 'definition',
        root,
        path: nodePath.join(root, main, 'TypeSpec.java'),
        position: at,
      })
      timings.push(`definition ${seconds(performance.now() - before)}`)
      const constructor = positionOf(root, `${main}/CodeWriter.java`, 'CodeWriter(Appendable out) {')
      expect(locations.map((l) => [nodePath.relative(root, l.path), l.range.start.line])).toContainEqual([
        `${main}/CodeWriter.java`,
        constructor.line,
      ])
    }, 180_000)

    /** The lines of `bestGuess`'s references, as `file:line` (1-based). */
    const bestGuessReferences = async (): Promise<string[]> => {
      const at = positionOf(root, `${main}/ClassName.java`, 'ClassName bestGuess(', { offset: 'ClassName '.length })
      const { locations } = await lsp.query({
        operation: 'references',
        root,
        path: nodePath.join(root, main, 'ClassName.java'),
        position: at,
      })
      return locations.map((l) => `${nodePath.relative(root, l.path)}:${l.range.start.line + 1}`)
    }

    test('references cross from the main sources into the tests', async () => {
      const before = performance.now()
      const references = await bestGuessReferences()
      timings.push(`first references ${seconds(performance.now() - before)}`)
      const call = positionOf(root, `${test_}/TypeNameTest.java`, 'ClassName.bestGuess("java.lang.Object")')
      expect(references).toContain(`${test_}/TypeNameTest.java:${call.line + 1}`)
      expect(references.filter((where) => where.startsWith(`${test_}/ClassNameTest.java:`)).length).toBeGreaterThan(3)
    }, 180_000)

    // JDT LS takes a didChangeWatchedFiles in on a job of its own, racing the next request: without the record's
    // `changesThroughDocuments` (changes also sent as document content, as rust-analyzer's are), the first
    // references after the write missed the new call in 2 of 3 runs here (measured: there a second later).
    test('after a plain write to disk, references include the new call', async () => {
      const util = nodePath.join(root, main, 'Util.java')
      const text = readFileSync(util, 'utf8')
      const end = text.lastIndexOf('}')
      const added = '  static ClassName probeForCodeseam() {\n    return ClassName.bestGuess("java.util.Map");\n  }\n'
      writeFileSync(util, `${text.slice(0, end)}${added}${text.slice(end)}`)
      const call = positionOf(root, `${main}/Util.java`, 'ClassName.bestGuess("java.util.Map")')
      const before = performance.now()
      const references = await bestGuessReferences()
      timings.push(`references after the write ${seconds(performance.now() - before)}`)
      expect(references).toContain(`${main}/Util.java:${call.line + 1}`)
    }, 180_000)

    test.runIf(process.env['CODESEAM_JAVA_COLD_START'] === '1')(
      "for the report: spawn → first references, codeseam's and the bare server's, on a fresh copy",
      async () => {
        const fresh = unpackCorpus('javapoet')
        const state = dataFoldersOf(await toolchainLaunch(fresh.root, 'java', 'untrusted'))
        const file = `${main}/ClassName.java`
        const at = positionOf(fresh.root, file, 'ClassName bestGuess(', { offset: 'ClassName '.length })
        try {
          const before = performance.now()
          const coldHost = await createLocalHost()
          const coldLsp = createLsp()
          try {
            await coldHost.attach(coldLsp, [{ root: fresh.root }])
            const { locations } = await coldLsp.query({
              operation: 'references',
              root: fresh.root,
              path: nodePath.join(fresh.root, file),
              position: at,
            })
            timings.push(`codeseam: spawn → first references ${seconds(performance.now() - before)} (${locations.length} locations)`)
          } finally {
            await coldHost.dispose()
          }
          const measured = await measureBareFirstAnswer(fresh.root, file, at)
          timings.push(
            `bare JDT LS: spawn → ServiceReady ${seconds(measured.readyMs)}, → first references ${seconds(measured.answerMs)} (${measured.references} locations)`,
          )
          expect(measured.references).toBeGreaterThan(0)
        } finally {
          fresh.remove()
          for (const folder of state) rmSync(folder, { recursive: true, force: true })
        }
      },
      400_000,
    )
  })
}
