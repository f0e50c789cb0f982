import { NotificationType, type MessageConnection } from 'vscode-languageserver-protocol/node'

import type { ClientRequestContext } from '../record.js'

/**
 * JDT LS says how its start goes in `language/status` notifications: `Starting` (with a percentage) while it
 * imports the projects, `ServiceReady` once it answers from them, `Error` when the import failed. They are its
 * readiness report, read as rust-analyzer's `experimental/serverStatus` is (the `serverStatus` readiness rule).
 */
interface LanguageStatus {
  readonly type: string
  readonly message?: string
}
const languageStatus = new NotificationType<LanguageStatus>('language/status')

export function serveJdtlsClient(connection: MessageConnection, context: ClientRequestContext): void {
  connection.onNotification(languageStatus, ({ type, message }) => {
    if (type === 'ServiceReady') context.status({ quiescent: true, health: 'ok', ...(message === undefined ? {} : { message }) })
    else if (type === 'Error') context.status({ quiescent: true, health: 'error', message: message ?? 'JDT LS reported an error' })
    else if (type === 'Starting') context.status({ quiescent: false, health: 'ok', ...(message === undefined ? {} : { message }) })
  })
}
