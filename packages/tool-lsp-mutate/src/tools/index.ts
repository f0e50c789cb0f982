import type { AnyTool } from '@codeseam/tool-lsp'

import { MutationSession, type MutationSessionOptions } from '../transaction.js'
import { codeActionsTool } from './actions.js'
import { codeInsertTool, codeReplaceBatchTool, codeReplaceTool } from './edit-tools.js'
import { codeFormatTool } from './format.js'
import { codeRenameTool } from './rename.js'

/**
 * Every mutating tool, sharing one session (approval state, queue, lock). Pass a session to share it with
 * other code, or options to create one.
 */
export function mutationTools(session: MutationSession | MutationSessionOptions = {}): AnyTool[] {
  const shared = session instanceof MutationSession ? session : new MutationSession(session)
  return [
    codeRenameTool(shared),
    codeActionsTool(shared),
    codeFormatTool(shared),
    codeInsertTool(shared),
    codeReplaceTool(shared),
    codeReplaceBatchTool(shared),
  ]
}
