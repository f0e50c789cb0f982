import {
  createLsp,
  LspError,
  pathToUri,
  resultMeta,
  TextLines,
  type LspDocumentSymbol,
  type LspErrorCode,
  type LspHierarchyItem,
  type LspLocation,
  type LspOperation,
  type LspProvider,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspRange,
  type LspResultMeta,
  type LspService,
} from '@codeseam/lsp'
import { createMemoryWorkspace, type MemoryWorkspace } from '@codeseam/lsp/testing'

/**
 * A small, real language provider for "toy" files (`.toy`), written for unit tests: `class Name {`,
 * `fn name(args)` declarations with `}` closing blocks, `# doc` comments above them, calls `name(…)`.
 * Every answer is computed from the workspace's text, so the tools' shapes are deterministic.
 */

const declaration = /^(\s*)(class|fn)\s+([A-Za-z_][A-Za-z0-9_]*)/

interface ToyOptions {
  /** Readiness reported in result meta (a provider still indexing answers with status "indexing"). */
  readonly status?: LspResultMeta['status']
  readonly warm?: boolean
  /** Marks every answer as cut short by the provider. */
  readonly truncated?: boolean
  readonly operations?: ReadonlyArray<LspOperation>
  readonly state?: LspProviderStatus['state']
  /** Makes one operation fail with `code` for files whose path ends with `pathEnd` (a server in trouble). */
  readonly failing?: { readonly operation: LspOperation; readonly pathEnd: string; readonly code: LspErrorCode }
}

function wordAt(text: string, character: number): { word: string; start: number } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c)
  let start = character
  while (start > 0 && isWord(text[start - 1])) start--
  let end = character
  while (isWord(text[end])) end++
  return end > start ? { word: text.slice(start, end), start } : undefined
}

function outline(text: string): LspDocumentSymbol[] {
  const lines = new TextLines(text)
  const roots: LspDocumentSymbol[] = []
  const stack: Array<{ symbol: { -readonly [K in keyof LspDocumentSymbol]: LspDocumentSymbol[K] }; children: LspDocumentSymbol[] }> = []
  for (let line = 0; line < lines.lineCount; line++) {
    const content = lines.lineText(line)
    const match = declaration.exec(content)
    if (match !== null) {
      const column = match[1]!.length + match[2]!.length + 1
      const children: LspDocumentSymbol[] = []
      const name = match[3]!
      const inClass = stack.length > 0
      const symbol = {
        name,
        kind: match[2] === 'class' ? ('class' as const) : inClass ? ('method' as const) : ('function' as const),
        ...(match[2] === 'fn' ? { detail: content.trim().replace(/\s*\{$/, '') } : {}),
        range: { start: { line, character: match[1]!.length }, end: { line, character: content.length } },
        selectionRange: { start: { line, character: column }, end: { line, character: column + name.length } },
        children,
      }
      stack.push({ symbol, children })
      continue
    }
    if (/^\s*\}\s*$/.test(content) && stack.length > 0) {
      const done = stack.pop()!
      done.symbol.range = { start: done.symbol.range.start, end: { line, character: content.length } }
      ;(stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(done.symbol)
    }
  }
  return roots
}

function flat(symbols: ReadonlyArray<LspDocumentSymbol>, container?: string): Array<LspDocumentSymbol & { container?: string }> {
  return symbols.flatMap((s) => [{ ...s, ...(container === undefined ? {} : { container }) }, ...flat(s.children, s.name)])
}

/** A toy provider over a memory workspace. */
export function createToyProvider(workspace: MemoryWorkspace, options: ToyOptions = {}): LspProvider {
  const meta = (): LspResultMeta =>
    resultMeta('toy', { status: options.status ?? 'ready', warm: options.warm ?? true, truncated: options.truncated ?? false })
  const toyFiles = () => [...workspace.files.entries()].filter(([path]) => path.endsWith('.toy'))
  const location = (path: string, range: LspRange): LspLocation => ({ uri: pathToUri(path), path, range })
  const allSymbols = () => toyFiles().flatMap(([path, text]) => flat(outline(text)).map((s) => ({ ...s, path })))
  const item = (s: ReturnType<typeof allSymbols>[number]): LspHierarchyItem => ({
    id: `${s.path}#${s.name}@${s.selectionRange.start.line}`,
    name: s.name,
    kind: s.kind,
    uri: pathToUri(s.path),
    path: s.path,
    range: s.range,
    selectionRange: s.selectionRange,
  })
  const callsIn = (s: ReturnType<typeof allSymbols>[number]) => {
    const lines = new TextLines(workspace.files.get(s.path)!)
    const calls: Array<{ name: string; range: LspRange }> = []
    for (let line = s.range.start.line + 1; line < s.range.end.line; line++) {
      for (const m of lines.lineText(line).matchAll(/([A-Za-z_][A-Za-z0-9_]*)\(/g)) {
        calls.push({ name: m[1]!, range: { start: { line, character: m.index }, end: { line, character: m.index + m[1]!.length } } })
      }
    }
    return calls
  }
  const functions = () => allSymbols().filter((s) => s.kind !== 'class')
  const textOf = (path: string) => {
    const text = workspace.files.get(path)
    if (text === undefined) throw new LspError('NOT_FOUND', `${path} does not exist`)
    return new TextLines(text)
  }
  const wordAtRequest = (request: { path: string; position: { line: number; character: number } }) =>
    wordAt(textOf(request.path).lineText(request.position.line), request.position.character)

  return {
    id: 'toy',
    extensions: { '.toy': 'toy' },
    operations: options.operations ?? [
      'definition',
      'references',
      'hover',
      'signatureHelp',
      'documentSymbols',
      'workspaceSymbols',
      'prepareCallHierarchy',
      'incomingCalls',
      'outgoingCalls',
      'diagnostics',
      'inlayHints',
      'completion',
    ],
    status: () => [
      {
        providerId: 'toy',
        root: workspace.root,
        server: 'toy',
        state: options.state ?? 'ready',
        languages: ['toy'],
        operations: [],
        uptimeMs: 1000,
        rssBytes: 1024 * 1024,
        rssSampledAt: Date.now() - 2_000,
        memoryCeilingBytes: 4096 * 1024 * 1024,
      },
    ],
    query: (async (request: LspQueryRequest, signal: AbortSignal): Promise<never> => {
      if (signal.aborted) throw new LspError('CANCELLED', 'cancelled')
      const failing = options.failing
      if (failing !== undefined && request.operation === failing.operation && 'path' in request && request.path.endsWith(failing.pathEnd)) {
        throw new LspError(failing.code, `toy ${request.operation} failed on purpose for ${request.path}`)
      }
      const answer = (value: object) => ({ ...value, meta: meta() }) as never
      switch (request.operation) {
        case 'documentSymbols':
          return answer({ kind: 'documentSymbols', symbols: outline(textOf(request.path).text) })
        case 'workspaceSymbols':
          return answer({
            kind: 'workspaceSymbols',
            symbols: allSymbols()
              .filter((s) => s.name.toLowerCase().includes(request.query.toLowerCase()))
              .map((s) => ({
                name: s.name,
                kind: s.kind,
                ...(s.container === undefined ? {} : { containerName: s.container }),
                location: location(s.path, s.selectionRange),
              })),
          })
        case 'definition': {
          const word = wordAtRequest(request)
          const found = allSymbols().filter((s) => s.name === word?.word)
          return answer({
            kind: 'locations',
            locations: found.map((s) => ({ ...location(s.path, s.range), targetSelectionRange: s.selectionRange })),
          })
        }
        case 'references': {
          const word = wordAtRequest(request)
          if (word === undefined) return answer({ kind: 'locations', locations: [] })
          const hits: LspLocation[] = []
          for (const [path, text] of toyFiles()) {
            const lines = new TextLines(text)
            for (let line = 0; line < lines.lineCount; line++) {
              for (const m of lines.lineText(line).matchAll(new RegExp(`\\b${word.word}\\b`, 'g'))) {
                hits.push(location(path, { start: { line, character: m.index }, end: { line, character: m.index + word.word.length } }))
              }
            }
          }
          return answer({ kind: 'locations', locations: hits })
        }
        case 'hover': {
          const word = wordAtRequest(request)
          const symbol = allSymbols().find((s) => s.name === word?.word)
          if (symbol === undefined) return answer({ kind: 'hover', hover: null })
          const lines = textOf(symbol.path)
          const doc = symbol.selectionRange.start.line > 0 ? lines.lineText(symbol.selectionRange.start.line - 1).trim() : ''
          const signature = lines
            .lineText(symbol.selectionRange.start.line)
            .trim()
            .replace(/\s*\{$/, '')
          return answer({
            kind: 'hover',
            hover: {
              format: 'markdown',
              contents: `\`\`\`toy\n${signature}\n\`\`\`${doc.startsWith('#') ? `\n---\n${doc.slice(1).trim()}` : ''}`,
            },
          })
        }
        case 'signatureHelp': {
          const text = textOf(request.path).lineText(request.position.line).slice(0, request.position.character)
          const open = text.lastIndexOf('(')
          const callee = open < 0 ? undefined : wordAt(text, open)
          const symbol = functions().find((s) => s.name === callee?.word)
          if (symbol === undefined || symbol.detail === undefined) return answer({ kind: 'signatureHelp', signatureHelp: null })
          const params =
            /\(([^)]*)\)/
              .exec(symbol.detail)?.[1]
              ?.split(',')
              .map((p) => p.trim())
              .filter(Boolean) ?? []
          const active = (text.slice(open).match(/,/g) ?? []).length
          return answer({
            kind: 'signatureHelp',
            signatureHelp: {
              signatures: [{ label: symbol.detail, parameters: params.map((label) => ({ label })) }],
              activeSignature: 0,
              activeParameter: active,
            },
          })
        }
        case 'prepareCallHierarchy': {
          const word = wordAtRequest(request)
          return answer({
            kind: 'hierarchyItems',
            items: functions()
              .filter((s) => s.name === word?.word)
              .map(item),
          })
        }
        case 'outgoingCalls': {
          const from = functions().find((s) => item(s).id === request.item.id)
          const calls = from === undefined ? [] : callsIn(from)
          const out = functions().flatMap((s) => {
            const ranges = calls.filter((c) => c.name === s.name).map((c) => c.range)
            return ranges.length === 0 ? [] : [{ item: item(s), fromRanges: ranges }]
          })
          return answer({ kind: 'hierarchyCalls', calls: out })
        }
        case 'incomingCalls': {
          const out = functions().flatMap((s) => {
            const ranges = callsIn(s)
              .filter((c) => c.name === request.item.name)
              .map((c) => c.range)
            return ranges.length === 0 ? [] : [{ item: item(s), fromRanges: ranges }]
          })
          return answer({ kind: 'hierarchyCalls', calls: out })
        }
        case 'diagnostics': {
          const files = (request.path === undefined ? toyFiles().map(([p]) => p) : [request.path]).map((path) => {
            const lines = textOf(path)
            const diagnostics = []
            for (let line = 0; line < lines.lineCount; line++) {
              const text = lines.lineText(line)
              const range = { start: { line, character: 0 }, end: { line, character: text.length } }
              if (text.includes('ERROR'))
                diagnostics.push({ range, severity: 'error', message: `error on line ${line + 1}`, source: 'toy', code: 'E1' })
              if (text.includes('TODO')) diagnostics.push({ range, severity: 'warning', message: 'unfinished work', source: 'toy' })
              if (text.includes('unused'))
                diagnostics.push({ range, severity: 'hint', message: 'declared but never used', tags: ['unnecessary'], source: 'toy' })
            }
            return { uri: pathToUri(path), path, freshness: 'current', diagnostics }
          })
          return answer({
            kind: 'diagnostics',
            files,
            coverage: { analysed: files.map((f) => f.path), eligible: toyFiles().length, complete: true },
          })
        }
        case 'inlayHints': {
          const lines = textOf(request.path)
          const hints = []
          for (let line = 0; line < lines.lineCount; line++) {
            const m = /let\s+([a-z]+)\s*=\s*(\d+)/.exec(lines.lineText(line))
            if (m !== null) hints.push({ position: { line, character: m.index + 4 + m[1]!.length }, label: ': number', kind: 'type' })
          }
          return answer({ kind: 'inlayHints', hints })
        }
        case 'completion':
          return answer({
            kind: 'completion',
            isIncomplete: false,
            items: allSymbols().map((s) => ({
              label: s.name,
              kind: s.kind,
              ...(s.detail === undefined ? {} : { detail: s.detail }),
              sortText: s.name,
            })),
          })
        default:
          throw new LspError('UNSUPPORTED_OPERATION', `toy does not support ${request.operation}`)
      }
    }) as LspProvider['query'],
  }
}

/** A service with one toy workspace open; `files` are relative path → text. */
export function toyService(files: Record<string, string>, options: ToyOptions = {}): { lsp: LspService; workspace: MemoryWorkspace } {
  const lsp = createLsp()
  const workspace = createMemoryWorkspace({ id: 'toy', root: '/virtual/toy', files })
  lsp.registerWorkspace(workspace)
  lsp.registerProvider(createToyProvider(workspace, options))
  return { lsp, workspace }
}

/** 1-based column where `needle` starts on the `occurrence`-th line containing it (positions found by text, never counted by hand). */
export function columnOf(text: string, needle: string, occurrence = 0): number {
  const line = text.split('\n')[lineOf(text, needle, occurrence) - 1]!
  return line.indexOf(needle) + 1
}

/** 1-based line of the first line containing `needle` (positions found by text, never counted by hand). */
export function lineOf(text: string, needle: string, occurrence = 0): number {
  const lines = text.split('\n')
  let seen = 0
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle)) {
      if (seen === occurrence) return i + 1
      seen++
    }
  }
  throw new Error(`no line contains ${JSON.stringify(needle)}`)
}
