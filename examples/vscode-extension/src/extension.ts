import { createLsp, isLspError, type LspCapability } from '@codeseam/lsp'
import { registerVsCode, type VsCodeRegistration } from '@codeseam/lsp-vscode'
import type { AnyTool } from '@codeseam/tool-lsp'
import { mutationTools, type ApprovalDecision } from '@codeseam/tool-lsp-mutate'
import * as vscode from 'vscode'

import { parseToolCall, readTools, runToolCall } from './tool-call.js'

/**
 * The example: `ctx.lsp` backed by whatever language extensions are installed, every codeseam tool on top,
 * and a command that runs a tool call given as JSON and shows the result.
 */

let registration: VsCodeRegistration | undefined

/** Mutations ask the person at the screen, showing the preview. */
async function approveInVsCode(summary: string, diff: string): Promise<ApprovalDecision> {
  const choice = await vscode.window.showWarningMessage(summary, { modal: true, detail: diff.slice(0, 4_000) }, 'Apply', 'Apply all')
  return choice === 'Apply' ? 'approve' : choice === 'Apply all' ? 'approveAll' : 'deny'
}

export function activate(context: vscode.ExtensionContext): { ctx: LspCapability; tools: ReadonlyArray<AnyTool> } {
  const ctx: LspCapability = { lsp: createLsp() }
  registration = registerVsCode(ctx.lsp)
  const tools: AnyTool[] = [
    ...readTools,
    ...mutationTools({
      approve: (request) => approveInVsCode(request.summary, request.preview.files.map((f) => f.diff).join('\n')),
    }),
  ]
  const output = vscode.window.createOutputChannel('codeseam')

  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('codeseam.listTools', () => {
      output.appendLine(tools.map((t) => `${t.name} — ${t.title}`).join('\n'))
      output.show(true)
      return tools.map((t) => t.name)
    }),
    // Callable from the palette (asks for JSON) or programmatically: executeCommand('codeseam.runToolCall', json).
    vscode.commands.registerCommand('codeseam.runToolCall', async (json?: unknown) => {
      const input =
        json ??
        (await vscode.window.showInputBox({
          title: 'codeseam tool call',
          prompt: 'JSON: {"tool": "code_symbols", "arguments": {"path": "src/index.ts"}}',
          ignoreFocusOut: true,
        }))
      if (input === undefined) return undefined
      const controller = new AbortController()
      try {
        const outcome = await runToolCall(ctx.lsp, tools, parseToolCall(input), controller.signal)
        output.appendLine(`── ${outcome.tool}: ${outcome.summary}`)
        output.appendLine(outcome.text)
        output.show(true)
        return outcome
      } catch (error) {
        const message = isLspError(error) ? `${error.code}: ${error.message}` : String(error)
        void vscode.window.showErrorMessage(`codeseam: ${message}`)
        return undefined
      }
    }),
  )
  return { ctx, tools }
}

export async function deactivate(): Promise<void> {
  await registration?.dispose()
  registration = undefined
}
