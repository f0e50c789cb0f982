import type { ToolCommand } from './flags.js'

/**
 * Help texts, generated from the tools' own schemas and descriptions so they cannot drift from behaviour (the
 * main help from the tool manifest, so `codeseam --help` loads no tool).
 */

/** Exit codes of every command. */
export const exitCodes = {
  ok: 0,
  /** The query failed with an LspError (its code is printed), or a mutation was not applied (denied, refused, conflict, failed). */
  failed: 1,
  /** The command line could not be understood. */
  usage: 2,
  /** A change was written, and the diagnostics after it show errors it introduced (the receipt lists them). */
  introducedErrors: 3,
  /** Interrupted (Ctrl-C): the running request was cancelled and the servers stopped. */
  interrupted: 130,
} as const

/** The telemetry flags, the same on every command. */
const otelHelp = [
  '  --otel-endpoint URL  export OpenTelemetry traces and metrics over OTLP/HTTP to this collector base URL',
  '                       (/v1/traces, /v1/metrics appended; also on when OTEL_EXPORTER_OTLP_ENDPOINT is set)',
  '  --otel-include-paths exported spans carry workspace-relative paths, root ids and symbol names (never file contents)',
]

const globalHelp = [
  '  --root DIR           workspace root (repeatable; default: the enclosing repository, else the nearest project folder, else the current directory; --root . for the current one)',
  '  --config FILE        lsp-local config (extra or overriding language-server profiles)',
  '  --trust LEVEL        trusted | untrusted (default untrusted: no server runs code the workspace chooses)',
  '  --max-servers N      at most N language-server processes at once (least recently used idle ones stop first)',
  '  --server-memory-mb N restart a server whose process tree stays above N MiB (0: no ceiling)',
  '  --memory-budget-mb N every language server together (both trust levels in a daemon): above N MiB, idle',
  '                       ones stop, least recently used first (default half of RAM, at least 1024; 0: none)',
  '  --node-heap-mb N     heap cap of Node-based servers, MiB (0: none)',
  '  --max-open-documents N  documents kept open per server',
  '  --max-file-bytes N   a file larger than N bytes is never sent to a server nor read for snippets (default 4194304; 0: none)',
  '  --max-line-length N  nor is a file with a line over N characters, e.g. minified (default 10000; 0: none)',
  '  --env-allow NAME     pass this host environment variable to servers (repeatable; default: a minimal set)',
  '  --no-index           answer from the live servers only, never from a stored index (`codeseam index`)',
  '  --json               print the result envelope as JSON (for scripts)',
  '  -y, --yes            approve changes that need an explicit yes (deletes, overwrites, server commands)',
  '  -q, --quiet          no progress lines on stderr',
  '  --color, --no-color  force colors on or off (default: only on a terminal; NO_COLOR is honoured)',
  ...otelHelp,
  '  -h, --help           this help',
]

const exitHelp = [
  'Exit codes:',
  '  0    ok',
  '  1    the query failed (the LspError code is printed, e.g. NOT_FOUND, AMBIGUOUS, UNAVAILABLE),',
  '       or a change was not applied (denied, refused, conflict, failed)',
  '  2    usage error (unknown command or flag, missing or malformed value)',
  '  3    a change was written and introduced errors (listed in the receipt)',
  '  130  interrupted',
]

function wrap(text: string, width: number, indent: string): string {
  const words = text.split(/\s+/).filter((w) => w.length > 0)
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line.length === 0 ? word : `${line} ${word}`
  }
  if (line.length > 0) lines.push(line)
  return lines.map((l) => `${indent}${l}`).join('\n')
}

/** What the main help shows of one tool (a tool manifest entry has these). */
export interface HelpTool {
  readonly command: string
  readonly title: string
  readonly readOnly: boolean
}

/** `codeseam --help`. */
export function mainHelp(tools: ReadonlyArray<HelpTool>): string {
  const width = Math.max(...tools.map((t) => t.command.length), 'install'.length) + 2
  const row = (name: string, text: string) => `  ${name.padEnd(width)}${text}`
  return [
    'codeseam: IDE-grade code intelligence from real language servers, for agents and people.',
    '',
    'Usage:',
    '  codeseam <command> [PATH] [flags]      one query, human output (or --json)',
    '  codeseam mcp [flags]                   the MCP server on stdio',
    '  codeseam serve [flags]                 the shared daemon (MCP over HTTP) many agents join',
    '',
    'Commands:',
    row('mcp', 'serve every tool over MCP (stdio)'),
    row('serve', 'the shared daemon: MCP over HTTP for many agents'),
    row('daemon', 'the running shared daemons: status, stop, logs'),
    row('doctor', 'every built-in language server: found or missing, version, install command'),
    row('install', 'install a missing language server or indexer (codeseam install go; never at query time)'),
    row('index', "build the precomputed index of a TypeScript workspace into codeseam's cache"),
    ...tools.map((t) => row(t.command, `${t.title}${t.readOnly ? '' : ' (changes files; --dry-run previews)'}`)),
    '',
    'Global flags:',
    ...globalHelp,
    '',
    ...exitHelp,
    '',
    'Examples:',
    '  codeseam navigate src/index.ts --symbol createLsp --kind references',
    '  codeseam symbols --query route',
    '  codeseam hover src/router.ts --symbol Router.match',
    '  codeseam diagnostics',
    '  codeseam rename src/x.ts --symbol foo --to bar --dry-run',
    '  codeseam status',
    '',
    "Run `codeseam <command> --help` for a command's flags.",
  ].join('\n')
}

/** `codeseam <command> --help`. */
export function commandHelp(command: ToolCommand): string {
  const flags = command.flags.map((f) => {
    const many = f.choices !== undefined && f.choices.length > 8
    const value =
      f.type === 'boolean'
        ? ''
        : f.choices !== undefined
          ? many
            ? ' KIND'
            : ` ${f.choices.join('|')}`
          : f.type === 'json'
            ? ' JSON'
            : f.type === 'integer'
              ? ' N'
              : ' VALUE'
    const head = `  --${f.flag}${value}${f.required ? ' (required)' : ''}${f.type === 'strings' ? ' (repeatable)' : ''}`
    const text = many ? `${f.description} One of: ${f.choices?.join(', ')}.` : f.description
    return text.length === 0 ? head : `${head}\n${wrap(text, 88, '      ')}`
  })
  const usage = `codeseam ${command.name}${command.positional === undefined ? '' : command.positional.required ? ` ${command.positional.label}` : ` [${command.positional.label}]`} [flags]`
  return [
    `Usage: ${usage}`,
    '',
    wrap(command.tool.description, 100, ''),
    '',
    ...(command.positional === undefined ? [] : [`  ${command.positional.label}  file path relative to the workspace root`, '']),
    'Flags:',
    ...flags,
    '',
    'Global flags:',
    ...globalHelp,
    '',
    ...exitHelp,
  ].join('\n')
}

/** `codeseam mcp --help`. */
export function mcpHelp(toolNames: ReadonlyArray<string>): string {
  return [
    'Usage: codeseam mcp [--root DIR ...] [--config FILE] [--trust trusted|untrusted] [--read-only] [--allow-edits] [--disable-tool NAME ...] [--daemon auto|never] [--otel-endpoint URL] [limits]',
    '',
    'Serves every codeseam tool to an MCP client over stdio. With --daemon auto (the default) it joins the',
    "user's shared codeseam daemon (starting it when none runs with the same configuration), so several",
    'agents on one repository share one language server per language; with --daemon never the language',
    'servers run in this process and stop when the client disconnects.',
    '',
    'Flags:',
    "  --root DIR           workspace root (repeatable; default: the client's roots (roots/list), else the current directory)",
    '  --config FILE        lsp-local config (extra or overriding language-server profiles)',
    '  --trust LEVEL        trusted | untrusted (default untrusted)',
    '  --max-servers N      at most N language-server processes at once (least recently used idle ones stop first)',
    '  --server-memory-mb N restart a server whose process tree stays above N MiB (0: no ceiling)',
    '  --memory-budget-mb N every language server together (both trust levels in a daemon): above N MiB, idle',
    '                       ones stop, least recently used first (default half of RAM, at least 1024; 0: none)',
    '  --node-heap-mb N     heap cap of Node-based servers, MiB (0: none)',
    '  --max-open-documents N  documents kept open per server',
    '  --max-file-bytes N   a file larger than N bytes is never sent to a server nor read for snippets (default 4194304; 0: none)',
    '  --max-line-length N  nor is a file with a line over N characters, e.g. minified (default 10000; 0: none)',
    '  --env-allow NAME     pass this host environment variable to servers (repeatable; default: a minimal set)',
    '  --no-index           answer from the live servers only, never from a stored index (`codeseam index`)',
    '  --read-only          expose only the read tools',
    '  --allow-edits        apply previewable changes without asking when the client cannot ask its user',
    '                       (without elicitation and without this flag, mutating tools only preview)',
    '  --disable-tool NAME  leave a tool out (repeatable)',
    '  --daemon MODE        auto: join (or start) the shared daemon (default); never: run the servers in this process',
    '  --idle-timeout SECONDS  a daemon this command starts exits after this long without sessions (default 600)',
    ...otelHelp,
    '                       (with --daemon auto the daemon exports: it gets these flags and the OTEL_* variables)',
    '  -h, --help           this help',
    '',
    `Tools: ${toolNames.join(', ')}`,
  ].join('\n')
}

/** `codeseam serve --help`. */
export function serveHelp(): string {
  return [
    'Usage: codeseam serve [--root DIR ...] [--trust LEVEL] [--read-only | --allow-edits] [--socket PATH | --no-socket] [--http HOST:PORT [--token-file FILE]] [--idle-timeout SECONDS] [--config FILE] [--otel-endpoint URL] [limits]',
    '',
    'The shared codeseam daemon: owns the language servers and serves MCP to many sessions at once (Streamable',
    'HTTP, and the `codeseam mcp` relays on its socket). Sessions on one root with the same trust share one',
    'server per language; each session sees only its own roots. Its flags are a ceiling, and what a session',
    'gets when it does not ask: a session asking for more trust, edits or other roots is refused.',
    'Connect with `codeseam mcp` (stdio proxy) or an MCP client speaking Streamable HTTP (endpoint /mcp).',
    '',
    'Flags:',
    '  --root DIR           the roots sessions may open (repeatable; default: any); sessions without roots get these',
    '  --trust LEVEL        the most trust a session may ask for, and what it gets when it does not ask: trusted | untrusted (default untrusted)',
    '  --read-only          sessions get the read tools only',
    '  --allow-edits        sessions may apply changes without asking, and do unless they ask for less (default: after asking their user)',
    "  --socket PATH        the Unix socket (default: the user's runtime folder, named by the configuration)",
    '  --no-socket          no Unix socket (with --http)',
    '  --http HOST:PORT     also serve on TCP (default host 127.0.0.1), always with a bearer token',
    '  --token-file FILE    the bearer token (default: generated, written 0600 in the runtime folder)',
    '  --allowed-origin ORIGIN  accept browser requests from this Origin (repeatable; default none)',
    '  --allowed-host HOST:PORT accept this Host header on TCP (repeatable; default the bound address and localhost)',
    '  --idle-timeout SECONDS exit after this long without sessions (default 0: never)',
    '  --config FILE, --env-allow NAME, --max-servers N, --server-memory-mb N, --memory-budget-mb N, --node-heap-mb N,',
    '  --max-open-documents N, --max-file-bytes N, --max-line-length N',
    '                       as for every command (they decide which servers run)',
    '  --no-index           sessions answer from the live servers only, never from a stored index (`codeseam index`)',
    ...otelHelp,
    '  -h, --help           this help',
  ].join('\n')
}

/** `codeseam doctor --help`. */
export function doctorHelp(): string {
  return [
    'Usage: codeseam doctor [--json]',
    '',
    'Lists every built-in language server as this machine has it: found or missing, where and which version,',
    'the files it serves, and for a missing one the exact command that installs it. Starts no server and',
    'installs nothing. Exit code 0.',
    '',
    '  --json               the same facts as JSON (for scripts)',
    '  -h, --help           this help',
  ].join('\n')
}

/** `codeseam install --help`. */
export function installHelp(): string {
  return [
    'Usage: codeseam install LANGUAGE... [--dry-run]',
    '',
    "Runs a missing language server's install command, the one `codeseam doctor` shows (its source: the Go",
    'module proxy, crates.io, Debian). LANGUAGE is a server id (as `codeseam doctor` lists them), a language',
    '(go, rust, c++), or all (every missing one). A server already found is left alone. Servers that ship',
    'with codeseam (npm dependencies) are never installed here. Nothing is ever installed at query time.',
    '',
    '  --dry-run            print the command that would run, run nothing',
    '  -h, --help           this help',
    '',
    'Exit codes: 0 every named server is installed; 1 an install failed or a server is still missing; 2 usage.',
  ].join('\n')
}

/** `codeseam index --help`. */
export function indexHelp(): string {
  return [
    'Usage: codeseam index [--root DIR] [--trust trusted|untrusted] [--json] [-q]',
    '',
    'Builds a SCIP index of a TypeScript / JavaScript workspace with the installed indexer (`codeseam doctor`',
    "lists it; `codeseam install` installs it) into the content-addressed store of codeseam's cache",
    '(~/.cache/codeseam/index/KEY/: index.scip and sidecar.json, the sha-256 of each indexed file). The key is',
    "the root's canonical path, the indexer's version and a digest of the workspace's files: when nothing changed,",
    'the existing entry is reused and nothing runs. Progress goes to stderr; where the index went, its size,',
    'document count and time to stdout. Nothing is written into the workspace. Every tsconfig.json / jsconfig.json',
    'under the root (outside node_modules and dot-folders) is indexed, with its project references: a monorepo',
    'needs no root config; a root with none is refused.',
    '',
    '  --root DIR           the workspace (default: the enclosing repository, else the nearest project folder)',
    "  --trust LEVEL        trusted | untrusted (default untrusted: the indexer runs from codeseam's cache on the",
    '                       configs codeseam found only; trusted also lists pnpm / yarn workspaces with their own CLI)',
    '  --json               the result as JSON: root, key, directory, reused, documents, bytes, ms',
    '  -q, --quiet          no progress on stderr',
    '  -h, --help           this help',
    '',
    'Exit codes: 0 indexed or reused; 1 the indexer is missing or failed, or no tsconfig.json; 2 usage.',
  ].join('\n')
}
