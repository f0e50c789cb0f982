/**
 * The native TypeScript 7 language server (`tsc --lsp --stdio`) over a small vscode-jsonrpc client: spawn,
 * initialize, answer the server's own requests (it blocks until workspace/configuration is answered), and
 * shut down within a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import {
  ConfigurationRequest,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  RegistrationRequest,
  ShutdownRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  createProtocolConnection,
  type InitializeResult,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node'
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node'

/** The platform executable of the `typescript-native` alias, found the way its own lib/getExePath.js does. */
export function nativeTscPath(): string {
  const require = createRequire(import.meta.url)
  const packageJson = require.resolve('typescript-native/package.json')
  const platformPackage = `@typescript/typescript-${process.platform}-${process.arch}`
  const fromPackage = createRequire(packageJson)
  const platformJson = fromPackage.resolve(`${platformPackage}/package.json`)
  const exe = nodePath.join(nodePath.dirname(platformJson), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc')
  readFileSync(exe, { flag: 'r' }).subarray(0, 0) // fails loudly when the binary is missing
  return exe
}

export interface NativeTypeScriptServer {
  readonly connection: ProtocolConnection
  readonly capabilities: InitializeResult['capabilities']
  readonly process: ChildProcess
  /** Shuts the server down (bounded), killing it if it does not exit. */
  stop(): Promise<void>
}

export async function startNativeTypeScript(root: string): Promise<NativeTypeScriptServer> {
  const child = spawn(nativeTscPath(), ['--lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.stderr.resume()
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
  connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => null))
  connection.onRequest(RegistrationRequest.type, () => undefined)
  connection.onRequest(UnregistrationRequest.type, () => undefined)
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
  connection.listen()
  const rootUri = pathToFileURL(root).href
  const result = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: nodePath.basename(root) }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: {
        configuration: true,
        workspaceFolders: true,
        workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
      },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        definition: { linkSupport: true },
        typeDefinition: { linkSupport: true },
        implementation: { linkSupport: true },
        declaration: { linkSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        rename: { prepareSupport: true },
        codeAction: {
          codeActionLiteralSupport: {
            codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.organizeImports', 'source.fixAll'] },
          },
          resolveSupport: { properties: ['edit'] },
          dataSupport: true,
        },
        completion: { completionItem: { snippetSupport: true, labelDetailsSupport: true } },
        signatureHelp: { signatureInformation: { parameterInformation: { labelOffsetSupport: true } } },
        inlayHint: {},
        diagnostic: {},
        callHierarchy: {},
      },
    },
  })
  await connection.sendNotification(InitializedNotification.type, {})
  let stopped: Promise<void> | undefined
  return {
    connection,
    capabilities: result.capabilities,
    process: child,
    stop() {
      stopped ??= (async () => {
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref())
        try {
          await Promise.race([
            connection.sendRequest(ShutdownRequest.type).then(() => connection.sendNotification(ExitNotification.type)),
            deadline,
          ])
        } catch {
          // The server is going away either way.
        }
        await Promise.race([exited, deadline])
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await exited
        connection.dispose()
      })()
      return stopped
    },
  }
}
