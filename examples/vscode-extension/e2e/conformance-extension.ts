/**
 * The extension the end-to-end check installs into a real VS Code (code-server): on startup it runs
 * codeseam's conformance kit through `@codeseam/lsp-vscode`, answered by VS Code's built-in TypeScript
 * support, and writes the report where the runner waits for it (CODESEAM_E2E_REPORT).
 */
import { writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { lspOperations } from '@codeseam/lsp'
import { createVsCodeProvider, createVsCodeWorkspace } from '@codeseam/lsp-vscode'
import { formatConformanceReport, runConformance, typeScriptFixture } from '@codeseam/lsp/testing'
import * as vscode from 'vscode'

/** What VS Code's TypeScript support has no provider for. */
const notProvided = new Set<string>(['declaration', 'prepareTypeHierarchy', 'supertypes', 'subtypes'])

export async function activate(): Promise<void> {
  const reportPath = process.env.CODESEAM_E2E_REPORT
  if (!reportPath) return
  const started = Date.now()
  try {
    const report = await runConformance({
      // The kit's TypeScript record, on its fixture folder shipped next to this bundle by the runner.
      fixture: { ...typeScriptFixture, dir: nodePath.join(__dirname, '..', 'fixtures', 'conformance') },
      checkTimeoutMs: 120_000,
      setup(root) {
        const provider = createVsCodeProvider({
          languages: ['typescript', 'typescriptreact'],
          operations: lspOperations.filter((op) => !notProvided.has(op)),
          // The kit copies its fixture to a fresh temp folder, which is not one of the window's folders.
          requireOpenFolder: false,
          timeoutMs: 60_000,
          warmupWaitMs: 20_000,
        })
        return { provider, workspace: createVsCodeWorkspace({ root }), dispose: () => provider.dispose?.() }
      },
    })
    const text = formatConformanceReport(report)
    const toolCall = await exampleToolCall()
    await writeFile(
      reportPath,
      JSON.stringify({ vscodeVersion: vscode.version, elapsedMs: Date.now() - started, report, text, toolCall }, null, 2),
    )
  } catch (error) {
    await writeFile(
      reportPath,
      JSON.stringify(
        { vscodeVersion: vscode.version, error: error instanceof Error ? `${error.stack ?? error.message}` : String(error) },
        null,
        2,
      ),
    )
  }
}

/**
 * The example extension, installed next to this one, answering a tool call given as JSON through its
 * command, on the window's open folder (a copy of the fixture).
 */
async function exampleToolCall(): Promise<{ ok: boolean; summary: string; text: string } | { error: string }> {
  const call = { tool: 'code_navigate', arguments: { target: { path: 'src/geometry.ts', symbol: 'totalArea' }, kind: 'references' } }
  try {
    const outcome = await vscode.commands.executeCommand<{ ok: boolean; summary: string; text: string } | undefined>(
      'codeseam.runToolCall',
      JSON.stringify(call),
    )
    if (outcome === undefined) return { error: 'codeseam.runToolCall returned nothing (see the error message it showed)' }
    return { ok: outcome.ok, summary: outcome.summary, text: outcome.text.slice(0, 4_000) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

export function deactivate(): void {}
