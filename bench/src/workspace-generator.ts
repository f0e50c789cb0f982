import { mkdir, rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

/**
 * A generated TypeScript workspace: deterministic (same size → same bytes), with cross-file imports and one
 * hot symbol referenced thousands of times, so references on it stress every layer's output path.
 */
export interface GeneratedWorkspace {
  readonly name: string
  readonly root: string
  readonly fileCount: number
  /** Workspace-relative path → text, for finding query positions by text. */
  readonly files: ReadonlyMap<string, string>
  /** The file declaring the hot symbol, and its name. */
  readonly hotFile: string
  readonly hotSymbol: string
  /** References (declaration included) the hot symbol has, counted while generating. */
  readonly hotReferenceCount: number
  /** The small known type hierarchy (absent when the workspace is too small to hold it). */
  readonly typeHierarchy?: TypeHierarchyFacts
}

/** A class of the known hierarchy: its name and the module declaring it. */
export interface GeneratedType {
  readonly name: string
  readonly path: string
}

/**
 * The known type hierarchy: the base class (the read mix's module's own), its direct subclasses in the next
 * two modules, and one subclass of a subclass (a subtype of the base, but not a direct one).
 */
export interface TypeHierarchyFacts {
  readonly base: GeneratedType
  readonly direct: ReadonlyArray<GeneratedType>
  readonly indirect: ReadonlyArray<GeneratedType>
}

/** The name of the symbol every module calls many times. */
export const hotSymbolName = 'hotMeasure'

/** How many calls to the hot symbol each module makes: enough for thousands of references at every size. */
function hotCallsPerModule(fileCount: number): number {
  return Math.max(3, Math.ceil(2_400 / fileCount))
}

/** The module whose class is the base of the known hierarchy: the read mix's module (the middle one). */
export function hierarchyBaseIndex(fileCount: number): number {
  return Math.floor(fileCount / 2)
}

/** The hierarchy of a workspace with `fileCount` modules: the base and the two modules after it. */
export function typeHierarchyOf(fileCount: number): TypeHierarchyFacts | undefined {
  const base = hierarchyBaseIndex(fileCount)
  if (base + 2 >= fileCount) return undefined
  const name = serviceName(base)
  return {
    base: { name, path: modulePath(base) },
    direct: [
      { name: `${name}Audited`, path: modulePath(base + 1) },
      { name: `${name}Batched`, path: modulePath(base + 2) },
    ],
    indirect: [{ name: `${name}BatchedTwice`, path: modulePath(base + 2) }],
  }
}

function serviceName(index: number): string {
  return `Service${String(index).padStart(4, '0')}`
}

function moduleName(index: number): string {
  return `module${String(index).padStart(4, '0')}`
}

/** The directory a module lives in: groups of 50, like a real tree. */
function moduleDir(index: number): string {
  return `src/area${String(Math.floor(index / 50)).padStart(2, '0')}`
}

/** Path of module `index` relative to the workspace root. */
export function modulePath(index: number): string {
  return `${moduleDir(index)}/${moduleName(index)}.ts`
}

function relativeImport(fromIndex: number, toPath: string): string {
  const relative = nodePath.posix.relative(moduleDir(fromIndex), toPath.replace(/\.ts$/, '.js'))
  return relative.startsWith('.') ? relative : `./${relative}`
}

function hotModule(): string {
  return [
    "/** The measure every module calls: the benchmark's hot symbol. */",
    `export function ${hotSymbolName}(value: number, weight = 1): number {`,
    '  return value * weight + 1',
    '}',
    '',
    '/** A record every module builds. */',
    'export interface Sample {',
    '  readonly id: string',
    '  readonly score: number',
    '}',
    '',
  ].join('\n')
}

/**
 * The known hierarchy's classes in the module after the base (`role` 1: one subclass and a plain use of the
 * base that is no subtype) and the one after that (`role` 2: a subclass and a subclass of it). Appended at
 * the end of the module, so nothing above them moves.
 */
function hierarchyText(base: string, role: 1 | 2): string[] {
  if (role === 1) {
    return [
      `/** A subclass of ${base}: part of the bench's known type hierarchy. */`,
      `export class ${base}Audited extends ${base} {`,
      '  readonly audited = true',
      '',
      `  static unwrap(inner: ${base}): string {`,
      '    return inner.describe()',
      '  }',
      '}',
      '',
    ]
  }
  return [
    `/** A subclass of ${base}: part of the bench's known type hierarchy. */`,
    `export class ${base}Batched extends ${base} {`,
    '  override describe(): string {',
    '    return `batched ${super.describe()}`',
    '  }',
    '}',
    '',
    `/** A subclass of ${base}Batched: a subtype of ${base}, but not a direct one. */`,
    `export class ${base}BatchedTwice extends ${base}Batched {}`,
    '',
  ]
}

/**
 * Module `index`: a class, an interface use, a function calling the previous module and the hot symbol.
 * `hierarchyBase`: the base module of the known hierarchy, when this module holds some of its subclasses.
 */
function moduleText(index: number, hotCalls: number, hierarchyBase?: number): string {
  const name = moduleName(index)
  const className = serviceName(index)
  const role = hierarchyBase === undefined ? undefined : index - hierarchyBase === 1 ? 1 : index - hierarchyBase === 2 ? 2 : undefined
  const base = hierarchyBase === undefined ? '' : serviceName(hierarchyBase)
  const lines = [`import { ${hotSymbolName}, type Sample } from '${relativeImport(index, 'src/core/hot.ts')}'`]
  const previous = index > 0 ? index - 1 : undefined
  if (previous !== undefined) {
    const alsoBase = role === 1 ? `, ${base}` : ''
    lines.push(`import { ${moduleName(previous)}Compute${alsoBase} } from '${relativeImport(index, modulePath(previous))}'`)
  }
  if (role === 2) lines.push(`import { ${base} } from '${relativeImport(index, modulePath(hierarchyBase!))}'`)
  lines.push(
    '',
    `/** Settings of ${className}. */`,
    `export interface ${className}Options {`,
    '  readonly factor: number',
    '  readonly label: string',
    '}',
    '',
    `/** A service with state, a method chain and a static factory. */`,
    `export class ${className} {`,
    `  private total = 0`,
    '',
    `  constructor(private readonly options: ${className}Options) {}`,
    '',
    `  /** Adds one sample and returns the running total. */`,
    `  add(sample: Sample): number {`,
    `    this.total += ${hotSymbolName}(sample.score, this.options.factor)`,
    '    return this.total',
    '  }',
    '',
    `  describe(): string {`,
    '    return `${this.options.label}: ${this.total}`',
    '  }',
    '',
    `  static create(label: string): ${className} {`,
    `    return new ${className}({ factor: ${(index % 7) + 1}, label })`,
    '  }',
    '}',
    '',
    `/** Combines this module's measure with the previous module's. */`,
    `export function ${name}Compute(input: number): number {`,
    `  const service = ${className}.create('${name}')`,
    `  const first = service.add({ id: '${name}-a', score: input })`,
  )
  for (let call = 0; call < hotCalls; call++) {
    lines.push(`  const step${call} = ${hotSymbolName}(first + ${call}, ${(call % 5) + 1})`)
  }
  const steps = Array.from({ length: hotCalls }, (_, call) => `step${call}`).join(' + ')
  lines.push(previous === undefined ? `  return ${steps}` : `  return ${steps} + ${moduleName(previous)}Compute(input - 1)`, '}', '')
  if (role !== undefined) lines.push(...hierarchyText(base, role))
  return lines.join('\n')
}

/** Builds the file map of a workspace with `fileCount` modules (plus the hot module). */
export function generateFiles(fileCount: number): { files: Map<string, string>; hotReferenceCount: number } {
  const files = new Map<string, string>()
  const hotCalls = hotCallsPerModule(fileCount)
  files.set('package.json', `${JSON.stringify({ name: `bench-ws-${fileCount}`, private: true, type: 'module' }, null, 2)}\n`)
  files.set(
    'tsconfig.json',
    `${JSON.stringify(
      {
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  )
  files.set('src/core/hot.ts', hotModule())
  const hierarchyBase = typeHierarchyOf(fileCount) === undefined ? undefined : hierarchyBaseIndex(fileCount)
  for (let index = 0; index < fileCount; index++) files.set(modulePath(index), moduleText(index, hotCalls, hierarchyBase))
  // Declaration + in each module: the import, the call in add(), and the step calls.
  const hotReferenceCount = 1 + fileCount * (2 + hotCalls)
  return { files, hotReferenceCount }
}

/** Writes a fresh generated workspace under `parent/name` (removing what was there). */
export async function writeWorkspace(parent: string, name: string, fileCount: number): Promise<GeneratedWorkspace> {
  const root = nodePath.join(parent, name)
  await rm(root, { recursive: true, force: true })
  const { files, hotReferenceCount } = generateFiles(fileCount)
  const dirs = new Set([...files.keys()].map((file) => nodePath.dirname(nodePath.join(root, file))))
  for (const dir of dirs) await mkdir(dir, { recursive: true })
  await Promise.all([...files].map(([file, text]) => writeFile(nodePath.join(root, file), text)))
  const typeHierarchy = typeHierarchyOf(fileCount)
  return {
    name,
    root,
    fileCount,
    files,
    hotFile: 'src/core/hot.ts',
    hotSymbol: hotSymbolName,
    hotReferenceCount,
    ...(typeHierarchy === undefined ? {} : { typeHierarchy }),
  }
}

/** A small deterministic Python package for pyright's cold start: `count` modules calling a shared helper. */
export async function writePythonWorkspace(parent: string, name: string, count: number): Promise<GeneratedWorkspace> {
  const root = nodePath.join(parent, name)
  await rm(root, { recursive: true, force: true })
  const files = new Map<string, string>()
  files.set('pyproject.toml', '[project]\nname = "bench-py"\nversion = "0.0.0"\n\n[tool.pyright]\ninclude = ["pkg"]\n')
  files.set('pkg/__init__.py', '')
  files.set(
    'pkg/hot.py',
    `def ${hotSymbolName}(value: float, weight: float = 1) -> float:\n    """The measure every module calls."""\n    return value * weight + 1\n`,
  )
  for (let index = 0; index < count; index++) {
    const previous = index > 0 ? `from pkg.mod${index - 1} import compute${index - 1}\n` : ''
    const tail = index > 0 ? ` + compute${index - 1}(value - 1)` : ''
    files.set(
      `pkg/mod${index}.py`,
      `from pkg.hot import ${hotSymbolName}\n${previous}\n\ndef compute${index}(value: float) -> float:\n    return ${hotSymbolName}(value, ${(index % 5) + 1})${tail}\n`,
    )
  }
  await mkdir(nodePath.join(root, 'pkg'), { recursive: true })
  await Promise.all([...files].map(([file, text]) => writeFile(nodePath.join(root, file), text)))
  return { name, root, fileCount: count, files, hotFile: 'pkg/hot.py', hotSymbol: hotSymbolName, hotReferenceCount: 1 + count * 2 }
}
