import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLsp } from '@codeseam/lsp'
import type { LocalHost } from '@codeseam/lsp-local'
import { callTool, toolContext, type ToolOutcome } from '@codeseam/tool-lsp'

import { mutationTools, MutationSession, type MutationReceipt, type ReceiptDiagnostic } from '../../src/index.js'
import type { IntegrityLocation } from '../../src/receipt.js'
import { removeTestLocks, sharedHost, testLockDirectory } from '../harness.js'
import { newErrors, runChecker, unavailable, type CheckerError } from './checkers.js'
import { corporaFolder, declarationOf, editCases, lineOf, signatureText, unpackCorpus, type EditCase } from './corpus-cases.js'

/**
 * Issue 29, "edits never break what they did not touch": each case is edited in its own copy of a real corpus;
 * the language's own checker before and after is the oracle for the receipt's `diagnostics.introduced`, a
 * refusal's `leftBehind`, and the dry run's `predicted`.
 */

const corpora = corporaFolder()
let host: LocalHost
beforeAll(async () => {
  if (corpora !== undefined) host = await sharedHost()
}, 120_000)
afterAll(async () => {
  await host?.dispose()
  removeTestLocks()
})

/** One call's result: the receipt (from the structured answer, or from error.data on a failure) and the error. */
interface Called {
  readonly receipt?: MutationReceipt
  readonly error?: { readonly code: string; readonly message: string; readonly data: Readonly<Record<string, unknown>> }
}

function called(outcome: ToolOutcome): Called {
  if (outcome.ok) return { receipt: outcome.structured['receipt'] as MutationReceipt }
  const data = outcome.error.data as Readonly<Record<string, unknown>>
  const receipt = data['receipt'] as MutationReceipt | undefined
  return { ...(receipt === undefined ? {} : { receipt }), error: { code: outcome.error.code, message: outcome.error.message, data } }
}

function toolArgs(c: EditCase, root: string, dryRun: boolean): { tool: string; args: unknown } {
  const text = readFileSync(nodePath.join(root, c.path), 'utf8')
  if (c.kind === 'rename') {
    return {
      tool: 'code_rename',
      args: { target: { path: c.path, line: lineOf(text, c.declaration), matchText: c.name }, newName: c.newName, dryRun },
    }
  }
  if (c.aim === 'line') {
    const { line, endLine } = declarationOf(root, c)
    return { tool: 'code_replace', args: { target: { path: c.path, line }, endLine, text: signatureText(root, c), dryRun } }
  }
  return { tool: 'code_replace', args: { target: { path: c.path, symbol: c.symbol }, text: signatureText(root, c), dryRun } }
}

/** Runs the dry run and then the edit on `root`, with its own ctx.lsp on the shared host. */
async function edit(c: EditCase, root: string): Promise<{ dry: Called; applied: Called }> {
  const lsp = createLsp()
  try {
    await host.attach(lsp, [{ root, trust: 'trusted' }])
    const session = new MutationSession({ lock: { directory: testLockDirectory }, diagnosticsWaitMs: 60_000, autoApprove: true })
    const tools = mutationTools(session)
    const call = async (dryRun: boolean): Promise<Called> => {
      const { tool, args } = toolArgs(c, root, dryRun)
      const found = tools.find((t) => t.name === tool)
      if (found === undefined) throw new Error(`no tool ${tool}`)
      return called(await callTool(found, args, toolContext(lsp), { maxChars: 2_000_000 }))
    }
    const dry = await call(true)
    const applied = await call(false)
    return { dry, applied }
  } finally {
    await lsp.dispose()
  }
}

const errorsOf = (ds: ReadonlyArray<ReceiptDiagnostic> | undefined): ReadonlyArray<ReceiptDiagnostic> =>
  (ds ?? []).filter((d) => d.severity === 'error')
const comparable = (ds: ReadonlyArray<ReceiptDiagnostic>): string[] =>
  ds.map((d) => `${d.path} ${d.severity} ${String(d.code ?? '')} ${d.message}`).sort()
const shown = (es: ReadonlyArray<CheckerError>): string[] => es.slice(0, 10).map((e) => `${e.file}:${e.line} ${e.code ?? ''} ${e.message}`)

/** Whether a left-behind location names the old name on disk (1-based line and column). */
function holdsOldName(root: string, at: IntegrityLocation, name: string): boolean {
  const line = readFileSync(nodePath.join(root, at.path), 'utf8').split('\n')[at.line - 1] ?? ''
  return line.slice(at.column - 1).startsWith(name)
}

describe.skipIf(corpora === undefined)("edit integrity against the languages' own checkers (issue 29)", () => {
  const caseName = (c: EditCase): string =>
    `${c.corpus}: ${c.kind} ${c.kind === 'rename' ? `${c.name} → ${c.newName}` : `${c.symbol}${c.aim === 'line' ? ' (by its lines)' : ''}`}`
  test.each(editCases.map((c) => [caseName(c), c] as const))(
    '%s',
    async (_name, c) => {
      const copy = unpackCorpus(corpora!, c.corpus)
      try {
        const checkerOptions = {
          ...(c.checkPaths === undefined ? {} : { paths: c.checkPaths }),
          ...(c.checkProject === undefined ? {} : { project: c.checkProject }),
        }
        const before = runChecker(c.language, copy.root, checkerOptions)
        const skip = unavailable(before)
        if (skip !== undefined) {
          console.warn(`skipped ${c.corpus}: ${skip}`)
          return
        }
        const { dry, applied } = await edit(c, copy.root)
        const after = runChecker(c.language, copy.root, checkerOptions)
        if (!before.available || !after.available) throw new Error('checker became unavailable')
        const rename = c.kind === 'rename' ? { from: c.name, to: c.newName } : undefined
        const fresh = newErrors(before.errors, after.errors, rename)
        const receipt = applied.receipt
        const introduced = errorsOf(receipt?.diagnostics?.introduced)
        const touched = new Set((receipt?.files ?? []).map((f) => f.path))
        console.log(
          JSON.stringify({
            case: _name,
            status: receipt?.status,
            error: applied.error?.code,
            introduced: receipt?.diagnostics?.introduced.length,
            introducedErrors: introduced.length,
            checked: receipt?.diagnostics?.checked,
            predicted: dry.receipt?.predicted?.introduced.length,
            dryError: dry.error?.code,
            checker: before.command,
            checkerNewErrors: fresh.length,
            sample: shown(fresh),
          }),
        )

        if (applied.error?.code === 'INCOMPLETE_EDIT') {
          // (ii) a refusal names what it would have left behind, and those places hold the old name.
          const leftBehind = (applied.error.data['leftBehind'] ?? []) as ReadonlyArray<IntegrityLocation>
          expect.soft(leftBehind.length, 'INCOMPLETE_EDIT names its left-behind references').toBeGreaterThan(0)
          const name = c.kind === 'rename' ? c.name : c.symbol
          expect.soft(leftBehind.filter((at) => !holdsOldName(copy.root, at, name))).toEqual([])
          expect.soft(fresh, 'a refused edit writes nothing').toEqual([])
          return
        }
        expect.soft(applied.error, `${c.kind} succeeds or is refused as INCOMPLETE_EDIT`).toBeUndefined()
        expect.soft(receipt?.status).toBe('applied')
        expect.soft(receipt?.diagnostics?.checked, 'the receipt says which files it checked').toBeDefined()
        // (i) 0 introduced errors ⇒ the checker finds no new error anywhere (a receipt that states a limit of
        // its diagnostics, rust-analyzer without cargo check, is held to the same rule).
        if (receipt?.status === 'applied' && introduced.length === 0) {
          expect.soft(shown(fresh), "receipt said 0 introduced; the checker's new errors").toEqual([])
        }
        const limits = receipt?.diagnostics?.checked?.limits ?? []
        if (c.language === 'rust')
          expect.soft(limits.join(' '), 'a Rust receipt says rust-analyzer is not cargo check').toContain('cargo check')
        // (iii) the dry run predicted what applying it did.
        expect.soft(dry.receipt?.predicted, 'a dry run carries predicted diagnostics').toBeDefined()
        expect.soft(comparable(errorsOf(dry.receipt?.predicted?.introduced)), 'predicted = introduced').toEqual(comparable(introduced))
        if (c.kind === 'signature') {
          // The broken callers are in other files: the receipt lists them, as the checker does.
          expect
            .soft(
              fresh.some((e) => !touched.has(e.file)),
              'the checker finds broken callers in other files',
            )
            .toBe(true)
          expect
            .soft(introduced.filter((d) => !touched.has(d.path)).length, 'introduced errors in files the edit did not touch')
            .toBeGreaterThan(0)
        }
      } finally {
        copy.remove()
      }
    },
    600_000,
  )
})
