import { builtinProfiles } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeNavigate } from '../../src/navigation.js'
import { rustProject, typeScriptProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

// Issue 44, item 2: answers say what the server could not see, and advise asking again only where that can change
// the answer. Real servers, positions found by text.

const rustAnalyzer = (await builtinProfiles()).find((p) => p.id === 'rust-analyzer')
const rustMissing = rustAnalyzer === undefined ? 'there is no built-in rust-analyzer profile' : rustAnalyzer.unavailable
if (rustMissing !== undefined && process.env['CI'] !== 'true')
  console.log(`SKIPPED the rust-analyzer diagnostics-limit test: ${rustMissing}`)

const justStarted = /had just started/

describe.skipIf(rustMissing !== undefined && process.env['CI'] !== 'true')(
  'code_diagnostics on rust-analyzer',
  { timeout: 240_000 },
  () => {
    let project: Project
    let real: RealHost

    beforeAll(async () => {
      project = await rustProject()
      real = await startRealHost(project.root)
    }, 240_000)

    afterAll(async () => {
      await real?.dispose()
      await project?.remove()
    })

    // Observed: "no problems" and "the language server had just started … ask again" for a file with two errors
    // `cargo check` reports (a use of a moved value, two mutable borrows), which rust-analyzer's analysis never sees.
    it('a file whose borrow errors only cargo check sees: names the check not run and how to get it, never bare "no problems"', async () => {
      const outcome = await real.call(codeDiagnostics, { path: 'src/lib.rs' })
      const result = structured(outcome)
      // The premise: rust-analyzer's own analysis reports neither error (borrow checking is the compiler's).
      expect(result.counts.error, JSON.stringify(result.files)).toBe(0)
      expect(result.notChecked).toEqual([expect.objectContaining({ language: 'Rust', limit: expect.stringContaining('`cargo check`') })])
      expect(outcome.text).not.toMatch(/^src\/lib\.rs: no problems$/m)
      expect(outcome.text).toMatch(
        /^src\/lib\.rs: no problems \(Rust: only the language server's own checks, not every check the compiler runs; see "not checked"\)$/m,
      )
      expect(outcome.text).toMatch(/not checked: Rust: .*borrow errors.*run `cargo check`/)
      expect(outcome.summary).not.toBe('no problems')
      // Asking again gives the same answer: the diagnostics are for the file as it is now.
      expect(outcome.text).not.toMatch(justStarted)

      const workspace = await real.call(codeDiagnostics, {})
      const whole = structured(workspace)
      expect(whole.notChecked).toEqual([expect.objectContaining({ language: 'Rust' })])
      expect(workspace.text).toMatch(/^workspace: no problems in the \d+ files? analysed \(Rust: only the language server's own checks/m)
    })
  },
)

describe('readiness advice on a freshly started TypeScript server', { timeout: 120_000 }, () => {
  let project: Project

  beforeAll(async () => {
    project = await typeScriptProject(0)
  })

  afterAll(async () => {
    await project?.remove()
  })

  /** The 1-based number of the first blank line after the line holding `needle`. */
  function blankLineAfter(file: string, needle: string): number {
    const lines = project.files[file]!.split('\n')
    const from = project.lineOf(file, needle)
    const index = lines.findIndex((line, i) => i >= from && line.trim() === '')
    if (index === -1) throw new Error(`no blank line after ${JSON.stringify(needle)} in ${file}`)
    return index + 1
  }

  // Observed: references on a blank line answered "0 references … the language server had just started"; asking
  // again can never find one there.
  it('references on a blank line: says nothing is there (what was checked), with no "had just started … ask again"', async () => {
    const real = await startRealHost(project.root)
    try {
      const line = blankLineAfter('src/shapes.ts', 'export interface Shape')
      const outcome = await real.call(codeNavigate, { target: { path: 'src/shapes.ts', line }, kind: 'references' })
      const result = structured(outcome)
      expect(result.totalFound).toBe(0)
      expect(result.readiness.warm, 'the first question of a fresh server').toBe(false)
      expect(outcome.text).not.toMatch(justStarted)
      expect(result.notice).toMatch(new RegExp(`line ${line} is blank`))
      expect(result.notice).toMatch(/asking again will not change/)
    } finally {
      await real.dispose()
    }
  })

  it('an empty answer at a real identifier right after start still gets the advice', async () => {
    const real = await startRealHost(project.root)
    try {
      // The type of a `number` parameter has no definition in the workspace: empty, at an identifier.
      const line = project.lineOf('src/telemetry.ts', 'export function track')
      const outcome = await real.call(codeNavigate, {
        target: { path: 'src/telemetry.ts', line, matchText: 'weight' },
        kind: 'typeDefinition',
      })
      const result = structured(outcome)
      expect(result.totalFound).toBe(0)
      expect(result.readiness.warm).toBe(false)
      expect(result.notice).toMatch(justStarted)
    } finally {
      await real.dispose()
    }
  })
})
