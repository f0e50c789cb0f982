import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { applyTextEdits, createLsp, pathToUri, symbolKindFromNumber, type LspService } from '@codeseam/lsp'
import {
  createMessageConnection,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  RequestType,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type DocumentSymbol,
  type SymbolInformation,
  type MessageConnection,
  type TextEdit,
} from 'vscode-languageserver-protocol/node'

import { clientCapabilitiesFor } from '../src/features/client-capabilities.js'
import { createLocalHost } from '../src/index.js'
import { profileOf } from '../src/languages/index.js'
import type { LanguageRecord, SymbolNaming } from '../src/languages/record.js'
import { planSpawn } from '../src/policy/trust.js'
import { markdownTokens } from '../src/languages/markdown/client.js'

/*
 * A configuration language's server, bare (config-languages.test.ts, markdown.test.ts and python-alternatives.test.ts
 * compare the seam's answers with it): started from the record's own lookup and settings, spoken to with nothing but
 * the protocol.
 */

/** What an outline says, kind aside (the seam names kinds; the server numbers them): name, line, children. */
export type Outline = Array<{ name: string; line: number; children: Outline }>
export const bareOutline = (symbols: ReadonlyArray<DocumentSymbol>, naming?: SymbolNaming): Outline =>
  symbols.map((s) => ({
    name: naming?.(s.name, symbolKindFromNumber(s.kind))?.name ?? s.name,
    line: s.selectionRange.start.line,
    children: bareOutline(s.children ?? [], naming),
  }))

/** VS Code's answers to the Markdown server's client requests, from the file system with no containment. */
function serveMarkdownBare(connection: MessageConnection, root: string): void {
  const path = (uri: string) => fileURLToPath(uri)
  connection.onRequest(new RequestType<{ uri: string; text?: string }, unknown, void>('markdown/parse'), ({ uri, text }) =>
    markdownTokens(text ?? readFileSync(path(uri), 'utf8')),
  )
  connection.onRequest(new RequestType<{ uri: string }, number[], void>('markdown/fs/readFile'), ({ uri }) =>
    Array.from(readFileSync(path(uri))),
  )
  connection.onRequest(new RequestType<{ uri: string }, unknown, void>('markdown/fs/stat'), ({ uri }) => {
    try {
      return { isDirectory: statSync(path(uri)).isDirectory() }
    } catch {
      return null
    }
  })
  connection.onRequest(new RequestType<{ uri: string }, unknown, void>('markdown/fs/readDirectory'), ({ uri }) =>
    readdirSync(path(uri), { withFileTypes: true }).map((entry) => [entry.name, { isDirectory: entry.isDirectory() }]),
  )
  // VS Code's `workspace.findFiles('**/*.md')`, less dot folders and node_modules (the server's own excludes).
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') return []
      const at = `${dir}/${entry.name}`
      return entry.isDirectory() ? walk(at) : /\.(md|markdown)$/.test(entry.name) ? [pathToUri(at)] : []
    })
  connection.onRequest(new RequestType<unknown, string[], void>('markdown/findMarkdownFilesInWorkspace'), () => walk(root))
  connection.onRequest(new RequestType<unknown, null, void>('markdown/fs/watcher/create'), () => null)
  connection.onRequest(new RequestType<unknown, null, void>('markdown/fs/watcher/delete'), () => null)
}

/** How the bare client speaks: by default, a plain client's capabilities; `codeseamCapabilities`: codeseam's own (what the oracle compares with). */
export interface BareOptions {
  readonly codeseamCapabilities?: boolean
}

/** The record's server, bare: the lookup's command, the profile's arguments, options and settings; no codeseam in between. */
export class BareServer {
  private readonly diagnostics = new Map<string, Diagnostic[]>()
  private readonly waiting = new Map<string, (d: Diagnostic[]) => void>()
  /** Whether the server is asked for diagnostics (pull) rather than pushing them. */
  pulls = false
  private constructor(
    readonly connection: MessageConnection,
    private readonly stop: () => void,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.set(params.uri, params.diagnostics)
      this.waiting.get(params.uri)?.(params.diagnostics)
    })
  }

  /**
   * `untrusted`: the command, environment and settings codeseam's own spawn plan gives an untrusted root (what the
   * seam runs here, so both see the same ShellCheck options); `record`: the record's profile as it stands, unhardened.
   */
  static async start(
    record: LanguageRecord,
    root: string,
    plan: 'untrusted' | 'record' = 'untrusted',
    options: BareOptions = {},
  ): Promise<BareServer> {
    const located = await record.locate()
    if (!located.found) throw new Error(located.why)
    const profile = record.profile(located)
    const spawnPlan =
      plan === 'untrusted'
        ? planSpawn(profileOf(record, located), { root, trust: 'untrusted', env: { ...process.env } as Record<string, string> })
        : {
            command: located.command,
            args: [...(located.leadingArgs ?? []), ...profile.args],
            settings: profile.settings ?? {},
            env: process.env,
          }
    const child = spawn(spawnPlan.command, spawnPlan.args, { cwd: root, env: spawnPlan.env, stdio: ['pipe', 'pipe', 'ignore'] })
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
    const settings = spawnPlan.settings as Record<string, unknown>
    // A section is a dotted path into the settings (`bashIde`, `docker.languageserver.formatter`).
    const lookup = (section: string | undefined): unknown =>
      (section ?? '')
        .split('.')
        .filter((part) => part !== '')
        .reduce<unknown>(
          (at, part) => (at !== null && typeof at === 'object' ? ((at as Record<string, unknown>)[part] ?? null) : null),
          settings,
        )
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => lookup(item.section)))
    // A server that registers capabilities as it starts (the Dockerfile server) waits for the answer.
    connection.onRequest(RegistrationRequest.type, () => undefined)
    // The Markdown server parses nothing and reads no file itself: it asks its client, as VS Code's extension
    // answers it. The bare client answers from the file system directly, with the host's own parser (what is
    // compared is everything else: the server's answers through the seam).
    if (record.serveClient !== undefined) serveMarkdownBare(connection, root)
    const server = new BareServer(connection, () => child.kill())
    connection.listen()
    const initialized = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToUri(root),
      workspaceFolders: [{ uri: pathToUri(root), name: 'bare' }],
      initializationOptions: profile.initializationOptions,
      capabilities: options.codeseamCapabilities
        ? clientCapabilitiesFor({ id: record.id, command: located.command, args: profile.args })
        : {
            workspace: { configuration: true },
            textDocument: {
              documentSymbol: { hierarchicalDocumentSymbolSupport: true },
              // What codeseam's client says it understands of a diagnostic (features/diagnostics.ts): ty words its
              // messages by it.
              publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, dataSupport: true },
              // Pull diagnostics for the Markdown server only (it has no push): told a client pulls, the JSON and
              // CSS servers would stop pushing, and each is compared as it answers codeseam.
              ...(record.serveClient !== undefined ? { diagnostic: {} } : {}),
            },
          },
    })
    server.pulls = record.serveClient !== undefined && initialized.capabilities.diagnosticProvider !== undefined
    await connection.sendNotification(InitializedNotification.type, {})
    // Servers that take their settings pushed rather than asked for (the Markdown server).
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings })
    return server
  }

  /**
   * Opens a file and takes its diagnostics as codeseam's contract says a client should: the pushes after the open
   * until they have been quiet for the host's `diagnosticsQuietMs` (400 ms; buf pushes compile errors, then its
   * lint findings a moment later). Every one of these servers publishes on open.
   */
  async open(path: string, languageId: string): Promise<Diagnostic[]> {
    const uri = pathToUri(path)
    const first = new Promise<Diagnostic[]>((resolve) => this.waiting.set(uri, resolve))
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text: readFileSync(path, 'utf8') },
    })
    if (this.pulls) {
      const report = await this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })
      return report.kind === 'full' ? report.items : []
    }
    let latest = this.diagnostics.get(uri) ?? (await first)
    for (;;) {
      const next = await new Promise<Diagnostic[] | undefined>((resolve) => {
        const quiet = setTimeout(() => resolve(undefined), 400)
        this.waiting.set(uri, (diagnostics) => {
          clearTimeout(quiet)
          resolve(diagnostics)
        })
      })
      if (next === undefined) return latest
      latest = next
    }
  }

  /**
   * The outline; `flat` when the server answers the older flat form (SymbolInformation: the HTML server). With
   * `naming`, its labels named as the language's record names them (RFC 0024).
   */
  async outline(path: string, naming?: SymbolNaming): Promise<{ outline: Outline; flat: boolean }> {
    const symbols = (await this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: pathToUri(path) } })) ?? []
    const flat = symbols.some((s) => 'location' in s)
    if (flat) {
      const lines = (symbols as SymbolInformation[]).map((s) => ({
        name: naming?.(s.name, symbolKindFromNumber(s.kind))?.name ?? s.name,
        line: s.location.range.start.line,
        children: [],
      }))
      return { outline: lines, flat }
    }
    return { outline: bareOutline(symbols as DocumentSymbol[], naming), flat }
  }

  async formatted(path: string): Promise<string> {
    const edits: TextEdit[] | null = await this.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri: pathToUri(path) },
      options: { tabSize: 2, insertSpaces: true },
    })
    // As a client does: a position past its line is the line's end, a line past the text is the text's end.
    const text = readFileSync(path, 'utf8')
    const lines = text.split(/\r?\n/)
    const clamp = (p: { line: number; character: number }) =>
      p.line >= lines.length
        ? { line: lines.length - 1, character: lines.at(-1)?.length ?? 0 }
        : { line: p.line, character: Math.min(p.character, lines[p.line]?.length ?? 0) }
    return applyTextEdits(
      text,
      (edits ?? []).map((e) => ({ ...e, range: { start: clamp(e.range.start), end: clamp(e.range.end) } })),
    )
  }

  dispose(): void {
    this.connection.dispose()
    this.stop()
  }
}

/** A root served two ways: through the seam (a local host, the root untrusted) and by the record's bare server. */
export interface SeamAndBare {
  readonly lsp: LspService
  readonly bare: BareServer
  /** Stops both sides. */
  stop(): Promise<void>
}

/** Starts both sides on `root`; `hostOptions` say which profiles the host runs. A failed start stops what it started. */
export async function startSeamAndBare(
  record: LanguageRecord,
  root: string,
  hostOptions?: Parameters<typeof createLocalHost>[0],
  bareOptions: BareOptions = {},
): Promise<SeamAndBare> {
  const host = await createLocalHost(hostOptions)
  const lsp = createLsp()
  const stopSeam = async () => {
    await lsp.dispose()
    await host.dispose()
  }
  try {
    await host.attach(lsp, [{ root, trust: 'untrusted' }])
    const bare = await BareServer.start(record, root, 'untrusted', bareOptions)
    return {
      lsp,
      bare,
      async stop() {
        bare.dispose()
        await stopSeam()
      },
    }
  } catch (error) {
    await stopSeam()
    throw error
  }
}
