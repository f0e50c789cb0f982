import { hierarchyBaseIndex, modulePath, type GeneratedWorkspace } from './workspace-generator.js'

/** The four native read operations every layer is measured on. */
export const readOperations = ['definition', 'references', 'hover', 'documentSymbols'] as const
/**
 * An operation a layer answers: the read mix's four, the derived type hierarchy (prepare + subtypes, see
 * type-hierarchy.ts), and the wider mix's (implementation, call hierarchy = prepare + incoming calls,
 * diagnostics of one file) on the real repositories.
 */
export type ReadOperation = (typeof readOperations)[number] | 'typeHierarchy' | 'implementation' | 'callHierarchy' | 'diagnostics'

/**
 * Operations of the read mix that codeseam derives (the native TS 7 server has no type hierarchy). They are
 * reported beside the native ones, against the bare server answering their ingredients, and kept out of the
 * mix's "all" figures (the whole-mix ratio, the increments the targets judge, the concurrent burst).
 */
export const derivedReadOperations: ReadonlySet<string> = new Set<ReadOperation>(['typeHierarchy'])

/** Whether an operation of the mix is a derived one. */
export function isDerivedOperation(operation: string): boolean {
  return derivedReadOperations.has(operation)
}

/** An answer in the normal form every layer's answer is brought to. */
export interface NormalAnswer {
  /** Items in the whole answer, before any page cut. */
  readonly count: number
  /** The items' keys, sorted (duplicates kept); only one page of them when `partial`. */
  readonly keys: ReadonlyArray<string>
  /** `keys` holds only a page of the answer (the tool's budget cut it). */
  readonly partial: boolean
}

/** What a correct answer contains; every layer checks its own output shape against this. */
export interface ReadExpectation {
  /** definition: the target file (workspace-relative). */
  readonly file?: string
  /** references: at least this many locations. */
  readonly minLocations?: number
  /** hover: text the hover contains. */
  readonly hoverIncludes?: string
  /** documentSymbols: a symbol with this name exists. */
  readonly symbolName?: string
  /** typeHierarchy: exactly these direct subtypes, as `name@path:line` (1-based line of the name). */
  readonly subtypes?: ReadonlyArray<string>
  /** The wider mix: the floor's answer in the normal form; every layer's must agree with it (wide-mix.ts). */
  readonly floor?: NormalAnswer
}

/** One read query of the mix, addressed both by position (floor, ctx.lsp) and by symbol/text (tools). */
export interface ReadQuery {
  readonly label: string
  readonly operation: ReadOperation
  /** Workspace-relative path. */
  readonly path: string
  /** Zero-based, found by text. */
  readonly position: { readonly line: number; readonly character: number }
  /** The same place as a model names it: 1-based line and the text on it. */
  readonly line: number
  readonly matchText: string
  readonly expect: ReadExpectation
}

/** Zero-based position of the `occurrence`-th `needle` in `text`, shifted `into` characters into it. */
export function positionOf(text: string, needle: string, occurrence = 0, into = 0): { line: number; character: number } {
  let index = -1
  for (let seen = 0; seen <= occurrence; seen++) {
    index = text.indexOf(needle, index + 1)
    if (index < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence + 1} times`)
  }
  const before = text.slice(0, index + into)
  const line = before.split('\n').length - 1
  return { line, character: index + into - (before.lastIndexOf('\n') + 1) }
}

function queryAt(
  files: ReadonlyMap<string, string>,
  label: string,
  operation: ReadOperation,
  path: string,
  needle: string,
  occurrence: number,
  expect: ReadExpectation,
  into = 0,
): ReadQuery {
  const text = files.get(path)
  if (text === undefined) throw new Error(`no file ${path} in the workspace`)
  const position = positionOf(text, needle, occurrence, into)
  const lineText = text.split('\n')[position.line] ?? ''
  return {
    label,
    operation,
    path,
    position,
    line: position.line + 1,
    matchText: lineText.slice(position.character).match(/^[A-Za-z0-9_$]+/)?.[0] ?? needle,
    expect,
  }
}

/** `name@path:line` of a generated class: where `class <name>` declares it (the key every layer is judged by). */
export function typeKey(files: ReadonlyMap<string, string>, type: { readonly name: string; readonly path: string }): string {
  const at = positionOf(files.get(type.path) ?? '', `class ${type.name} `)
  return `${type.name}@${type.path}:${at.line + 1}`
}

/**
 * The named read mix on a generated workspace: the same four native queries every layer answers, and the
 * derived one (the type hierarchy of the module's class: prepare + subtypes) when the workspace holds the
 * known hierarchy.
 */
export function generatedReadMix(workspace: GeneratedWorkspace): ReadQuery[] {
  const middle = hierarchyBaseIndex(workspace.fileCount)
  const path = modulePath(middle)
  const previous = `module${String(middle - 1).padStart(4, '0')}Compute`
  const own = `module${String(middle).padStart(4, '0')}Compute`
  const service = `Service${String(middle).padStart(4, '0')}`
  return [
    // The call to the previous module's function at the end of this one: a cross-file definition.
    queryAt(workspace.files, 'definition: cross-file call', 'definition', path, `${previous}(input - 1)`, 0, {
      file: modulePath(middle - 1),
    }),
    // This module's function is used by the next module (import + call) and declared here.
    queryAt(
      workspace.files,
      'references: exported function',
      'references',
      path,
      `function ${own}`,
      0,
      { minLocations: 3 },
      'function '.length,
    ),
    queryAt(workspace.files, 'hover: hot symbol call', 'hover', path, `${workspace.hotSymbol}(sample.score`, 0, {
      hoverIncludes: `${workspace.hotSymbol}(value: number`,
    }),
    queryAt(
      workspace.files,
      'documentSymbols: module',
      'documentSymbols',
      path,
      `class ${service}`,
      0,
      { symbolName: service },
      'class '.length,
    ),
    ...(workspace.typeHierarchy === undefined
      ? []
      : [
          queryAt(
            workspace.files,
            'typeHierarchy: subtypes of a class (derived)',
            'typeHierarchy',
            workspace.typeHierarchy.base.path,
            `class ${workspace.typeHierarchy.base.name} `,
            0,
            { subtypes: workspace.typeHierarchy.direct.map((type) => typeKey(workspace.files, type)).sort() },
            'class '.length,
          ),
        ]),
  ]
}

/** The hot-symbol references query: thousands of locations. */
export function hotReferencesQuery(workspace: GeneratedWorkspace): ReadQuery {
  return queryAt(
    workspace.files,
    'references: hot symbol',
    'references',
    workspace.hotFile,
    `function ${workspace.hotSymbol}`,
    0,
    {
      minLocations: workspace.hotReferenceCount,
    },
    'function '.length,
  )
}

/** The read mix on this repository (files read from disk by the caller). */
export function repositoryReadMix(files: ReadonlyMap<string, string>): ReadQuery[] {
  const service = 'packages/lsp/src/service.ts'
  const routing = 'packages/lsp/src/query-routing.ts'
  const validation = 'packages/lsp/src/provider-validation.ts'
  return [
    queryAt(files, 'definition: resolveInRoot', 'definition', routing, 'resolveInRoot(root, item.path)', 0, {
      file: 'packages/lsp/src/paths.ts',
    }),
    queryAt(files, 'references: createLsp', 'references', service, 'function createLsp', 0, { minLocations: 2 }, 'function '.length),
    queryAt(
      files,
      'hover: LspError',
      'hover',
      validation,
      "new LspError('INVALID_PROVIDER'",
      0,
      { hoverIncludes: 'LspError' },
      'new '.length,
    ),
    queryAt(
      files,
      'documentSymbols: service.ts',
      'documentSymbols',
      service,
      'function createLsp',
      0,
      { symbolName: 'createLsp' },
      'function '.length,
    ),
  ]
}

/** Files of this repository the repository mix reads. */
export const repositoryMixFiles = [
  'packages/lsp/src/service.ts',
  'packages/lsp/src/query-routing.ts',
  'packages/lsp/src/provider-validation.ts',
] as const
