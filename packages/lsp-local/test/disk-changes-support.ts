// Helpers for disk-changes.test.ts: one small workspace per language server, written to a fresh temp folder,
// with one uniquely named symbol declared in one file and used in others; the edits an agent makes with plain
// writes to disk; and the answer the test knows to be true, read from the disk at the question.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspService } from '@codeseam/lsp'
import { expect } from 'vitest'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { positionOf } from './helpers.js'

/** The three kinds of file an agent edits: one codeseam holds open, one opened only to load projects, one never opened. */
export type FileKind = 'open' | 'project' | 'unopened'

/** A language server's small workspace and how its source files are written. */
export interface LanguageCase {
  /** The built-in profile id (its `unavailable` decides the skip). */
  readonly profile: string
  /** The unique identifier: every textual occurrence (on word boundaries) in the source files is a reference. */
  readonly symbol: string
  /** The source file extensions scanned for the expected answer. */
  readonly extensions: ReadonlyArray<string>
  /** The workspace: path → text. */
  readonly files: Readonly<Record<string, string>>
  /** The declaring file, and the text whose start is the declaration's name. */
  readonly declaration: { readonly file: string; readonly needle: string }
  /** A file of each kind that uses the symbol (undefined: this language has no such file distinct from the others). */
  readonly kinds: Readonly<Record<FileKind, string | undefined>>
  /** Asked before anything else on a fresh host (Rust: the query that opens a file only to load the project). */
  readonly loadProject?: (lsp: LspService, root: string) => Promise<void>
  /** Where a new file (named by stem) goes, relative to the root. */
  readonly newFile: (stem: string) => string
  /** Where the files of the batch go: the i-th of them. */
  readonly batchFile: (index: number) => string
  /** A file at `file` (relative) using the symbol. */
  readonly using: (file: string) => string
  /** A file at `file` with no occurrence of the symbol (the use removed: its import too). */
  readonly plain: (file: string) => string
  /** Text appended to an existing file at `file`: one more use. */
  readonly appended: (file: string) => string
  /**
   * Whether a file that uses the symbol stays valid moved into another folder (false for Go: a folder is a
   * package, so a moved file would need another package clause).
   */
  readonly movable: boolean
  /** The other writes that make the files on disk part of the build (Rust: `mod` lines in lib.rs), if any. */
  readonly declareModules?: (root: string) => void
}

/** The stem of a file name, usable as part of an identifier. */
const stemOf = (file: string) =>
  nodePath
    .basename(file)
    .replace(/\..*$/, '')
    .replace(/[^A-Za-z0-9_]/g, '_')

// The declaration is imported through a path mapping, so a file that uses it stays valid wherever it moves under src/.
const tsBase = JSON.stringify({
  compilerOptions: {
    strict: true,
    module: 'esnext',
    moduleResolution: 'bundler',
    target: 'es2022',
    paths: { '@zebra/decl': ['./src/decl.ts'] },
  },
})
const tsUse = "import { zebraTotal } from '@zebra/decl'\n\nexport const value = zebraTotal(1, 2)\n"

/**
 * TypeScript (native TS 7, the default for .ts): a solution tsconfig.json referencing an app project (src, less
 * the specs) and a spec project. The loader opens and pins one file per project, the first in path order:
 * src/decl.ts for the app, src/a.spec.ts for the specs (the file opened only to load a project).
 */
export const typescriptCase: LanguageCase = {
  profile: 'typescript',
  symbol: 'zebraTotal',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'],
  files: {
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.spec.json' }] }),
    'tsconfig.base.json': tsBase,
    'tsconfig.app.json': JSON.stringify({ extends: './tsconfig.base.json', include: ['src'], exclude: ['src/**/*.spec.ts'] }),
    'tsconfig.spec.json': JSON.stringify({ extends: './tsconfig.base.json', include: ['src/**/*.spec.ts'] }),
    'src/decl.ts': 'export function zebraTotal(a: number, b: number): number {\n  return a + b\n}\n',
    'src/opened.ts': tsUse,
    'src/untouched.ts': tsUse,
    'src/a.spec.ts': "import { zebraTotal } from '@zebra/decl'\n\nexport const checked = zebraTotal(2, 3) === 5\n",
    'src/z.spec.ts': "import { zebraTotal } from '@zebra/decl'\n\nexport const again = zebraTotal(4, 5)\n",
  },
  declaration: { file: 'src/decl.ts', needle: 'zebraTotal(a' },
  kinds: { open: 'src/opened.ts', project: 'src/a.spec.ts', unopened: 'src/untouched.ts' },
  newFile: (stem) => `src/${stem}.ts`,
  batchFile: (index) => `src/batch/b${String(index).padStart(3, '0')}.ts`,
  using: () => tsUse,
  movable: true,
  plain: () => 'export const unrelated = 1\n',
  appended: () => '\nexport const more = zebraTotal(5, 6)\n',
}

/**
 * Python (pyright): pyrightconfig.json includes only pkg/, so scripts/loaded.py is outside pyright's program and
 * opened (pinned) only to load it; pkg/untouched.py is in the program and never opened.
 */
export const pythonCase: LanguageCase = {
  profile: 'pyright',
  symbol: 'zebra_total',
  extensions: ['.py', '.pyi'],
  files: {
    'pyrightconfig.json': JSON.stringify({ include: ['pkg'] }),
    'pkg/__init__.py': '',
    'pkg/decl.py': 'def zebra_total(a: int, b: int) -> int:\n    return a + b\n',
    'pkg/opened.py': 'from pkg.decl import zebra_total\n\nvalue = zebra_total(1, 2)\n',
    'pkg/untouched.py': 'from pkg.decl import zebra_total\n\nvalue = zebra_total(1, 2)\n',
    'scripts/loaded.py': 'from pkg.decl import zebra_total\n\nchecked = zebra_total(2, 3) == 5\n',
  },
  declaration: { file: 'pkg/decl.py', needle: 'zebra_total(a' },
  kinds: { open: 'pkg/opened.py', project: 'scripts/loaded.py', unopened: 'pkg/untouched.py' },
  newFile: (stem) => `pkg/${stem}.py`,
  batchFile: (index) => `pkg/batch/b${String(index).padStart(3, '0')}.py`,
  using: () => 'from pkg.decl import zebra_total\n\nvalue = zebra_total(1, 2)\n',
  movable: true,
  plain: () => 'unrelated = 1\n',
  appended: () => '\nmore = zebra_total(5, 6)\n',
}

/** The Go package clause and the qualifier of ZebraTotal for a file: the root package is `zebra`. */
function goPackage(file: string): { clause: string; imports: string; qualifier: string } {
  const dir = nodePath.dirname(file)
  if (dir === '.') return { clause: 'package zebra\n', imports: '', qualifier: '' }
  return { clause: `package ${nodePath.basename(dir)}\n`, imports: '\nimport "example.com/zebra"\n', qualifier: 'zebra.' }
}

/**
 * Go (gopls): module example.com/zebra; the loader opens and pins one file per package, the first in path order:
 * decl.go for the root package, loaded/first.go for package loaded (the file opened only to load a package).
 */
export const goCase: LanguageCase = {
  profile: 'gopls',
  symbol: 'ZebraTotal',
  extensions: ['.go'],
  files: {
    'go.mod': 'module example.com/zebra\n\ngo 1.22\n',
    'decl.go': 'package zebra\n\nfunc ZebraTotal(a, b int) int {\n\treturn a + b\n}\n',
    'opened.go': 'package zebra\n\nfunc use_opened() int { return ZebraTotal(1, 2) }\n',
    'untouched.go': 'package zebra\n\nfunc use_untouched() int { return ZebraTotal(1, 2) }\n',
    'loaded/first.go': 'package loaded\n\nimport "example.com/zebra"\n\nfunc UseFirst() int { return zebra.ZebraTotal(2, 3) }\n',
  },
  declaration: { file: 'decl.go', needle: 'ZebraTotal(a' },
  kinds: { open: 'opened.go', project: 'loaded/first.go', unopened: 'untouched.go' },
  newFile: (stem) => `${stem}.go`,
  batchFile: (index) => `b${String(index).padStart(3, '0')}.go`,
  movable: false,
  using: (file) => {
    const p = goPackage(file)
    return `${p.clause}${p.imports}\nfunc use_${stemOf(file)}() int { return ${p.qualifier}ZebraTotal(1, 2) }\n`
  },
  plain: (file) => `${goPackage(file).clause}\nfunc plain_${stemOf(file)}() int { return 1 }\n`,
  appended: (file) => `\nfunc more_${stemOf(file)}() int { return ${goPackage(file).qualifier}ZebraTotal(5, 6) }\n`,
}

/**
 * Rewrites src/lib.rs with one `pub mod` per module file under src/ (a file in a subfolder by `#[path]`), only
 * when that changes it.
 */
function declareRustModules(root: string): void {
  const src = nodePath.join(root, 'src')
  const files = (readdirSync(src, { recursive: true }) as string[])
    .map((file) => file.split(nodePath.sep).join('/'))
    .filter((file) => file.endsWith('.rs') && file !== 'lib.rs')
    .sort()
  const text = files
    .map((file) => {
      const mod = nodePath.basename(file, '.rs')
      return file.includes('/') ? `#[path = "${file}"]\npub mod ${mod};\n` : `pub mod ${mod};\n`
    })
    .join('')
  const lib = nodePath.join(src, 'lib.rs')
  if (!existsSync(lib) || readFileSync(lib, 'utf8') !== text) writeFileSync(lib, text)
}

/**
 * Rust (rust-analyzer): a crate whose lib.rs declares one module per file. rust-analyzer loads the crate from
 * Cargo.toml itself, so codeseam opens no file to load it for references; the one file it opens only to load a
 * project is the one a workspace-symbol search opens when nothing is open yet (the first in path order,
 * src/a_loaded.rs) — asked first on every fresh host here.
 */
export const rustCase: LanguageCase = {
  profile: 'rust-analyzer',
  symbol: 'zebra_total',
  extensions: ['.rs'],
  files: {
    'Cargo.toml': '[package]\nname = "zebra"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    'src/decl.rs': 'pub fn zebra_total(a: i32, b: i32) -> i32 {\n    a + b\n}\n',
    'src/a_loaded.rs': 'use crate::decl::zebra_total;\n\npub fn use_a_loaded() -> i32 {\n    zebra_total(2, 3)\n}\n',
    'src/opened.rs': 'use crate::decl::zebra_total;\n\npub fn use_opened() -> i32 {\n    zebra_total(1, 2)\n}\n',
    'src/untouched.rs': 'use crate::decl::zebra_total;\n\npub fn use_untouched() -> i32 {\n    zebra_total(1, 2)\n}\n',
    'src/lib.rs': 'pub mod a_loaded;\npub mod decl;\npub mod opened;\npub mod untouched;\n',
  },
  declaration: { file: 'src/decl.rs', needle: 'zebra_total(a' },
  kinds: { open: 'src/opened.rs', project: 'src/a_loaded.rs', unopened: 'src/untouched.rs' },
  loadProject: async (lsp, root) => {
    await lsp.query({ operation: 'workspaceSymbols', root, query: 'use_a_loaded' })
  },
  newFile: (stem) => `src/${stem}.rs`,
  batchFile: (index) => `src/b${String(index).padStart(3, '0')}.rs`,
  using: (file) => `use crate::decl::zebra_total;\n\npub fn use_${stemOf(file)}() -> i32 {\n    zebra_total(1, 2)\n}\n`,
  plain: (file) => `pub fn plain_${stemOf(file)}() -> i32 {\n    1\n}\n`,
  appended: (file) => `\npub fn more_${stemOf(file)}() -> i32 {\n    zebra_total(5, 6)\n}\n`,
  declareModules: declareRustModules,
  movable: true,
}

/** Folders never scanned for the expected answer (build output, dependencies, hidden folders). */
const notSource = new Set(['node_modules', 'target', '__pycache__'])

/**
 * The answer the test knows to be true: every occurrence of the symbol on word boundaries in the source files on
 * disk now, as `relativePath:line:character` (UTF-16 columns, as LSP counts them), sorted.
 */
export function occurrencesOnDisk(root: string, c: LanguageCase): string[] {
  const found: string[] = []
  const pattern = new RegExp(`\\b${c.symbol}\\b`, 'g')
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = nodePath.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!notSource.has(entry.name) && !entry.name.startsWith('.')) walk(path)
      } else if (entry.isFile() && c.extensions.some((extension) => entry.name.endsWith(extension))) {
        const lines = readFileSync(path, 'utf8').split('\n')
        lines.forEach((line, index) => {
          // JavaScript strings are UTF-16: a match's index in its line is its LSP character.
          for (const match of line.matchAll(pattern)) found.push(`${nodePath.relative(root, path)}:${index}:${match.index}`)
        })
      }
    }
  }
  walk(root)
  return found.sort()
}

/** What an answer lacks of the expected set, and what it has beyond it (both empty: the same set). */
export function difference(actual: ReadonlyArray<string>, expected: ReadonlyArray<string>): { missing: string[]; extra: string[] } {
  const have = new Set(actual)
  const want = new Set(expected)
  return { missing: shortList(expected.filter((k) => !have.has(k))), extra: shortList(actual.filter((k) => !want.has(k))) }
}

/** A list as a failure shows it: the first 12, then how many more (400 lines of a batch say no more than that). */
function shortList(keys: string[]): string[] {
  return keys.length <= 12 ? keys : [...keys.slice(0, 12), `… and ${keys.length - 12} more`]
}

/** A workspace on disk with a host attached, and the edits and questions of the rows. */
export class DiskWorkspace {
  private constructor(
    readonly c: LanguageCase,
    readonly root: string,
    readonly host: LocalHost,
    readonly lsp: LspService,
  ) {}

  /**
   * Writes the language's workspace into a fresh temp folder, attaches a host with its defaults (untrusted),
   * runs the language's project-loading question if it has one, opens the open-kind file by a file-scoped query,
   * and checks the first answer against the disk.
   */
  static async open(c: LanguageCase): Promise<DiskWorkspace> {
    const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-disk-changes-${c.profile}-`)))
    for (const [file, text] of Object.entries(c.files)) {
      mkdirSync(nodePath.dirname(nodePath.join(root, file)), { recursive: true })
      writeFileSync(nodePath.join(root, file), text)
    }
    const host = await createLocalHost()
    const lsp = createLsp()
    const ws = new DiskWorkspace(c, root, host, lsp)
    try {
      await host.attach(lsp, [{ root }])
      await c.loadProject?.(lsp, root)
      const open = c.kinds.open
      if (open !== undefined) await lsp.query({ operation: 'documentSymbols', root, path: nodePath.join(root, open) })
      await ws.expectCurrent('precondition: the first answer, before any change')
    } catch (error) {
      await ws.dispose()
      throw error
    }
    return ws
  }

  async dispose(): Promise<void> {
    await this.lsp.dispose()
    await this.host.dispose()
    rmSync(this.root, { recursive: true, force: true })
  }

  /** The references at the declaration, as sorted, distinct `relativePath:line:character`. */
  async references(): Promise<string[]> {
    const { file, needle } = this.c.declaration
    const path = nodePath.join(this.root, file)
    const result = await this.lsp.query({
      operation: 'references',
      root: this.root,
      path,
      position: positionOf(this.root, file, needle),
    })
    const keys = result.locations.map((l) => `${nodePath.relative(this.root, l.path)}:${l.range.start.line}:${l.range.start.character}`)
    return [...new Set(keys)].sort()
  }

  /** Asks references now and asserts they are exactly the occurrences on disk now: nothing missing, nothing extra. */
  async expectCurrent(label: string): Promise<string[]> {
    const actual = await this.references()
    expect(difference(actual, this.onDisk()), label).toEqual({ missing: [], extra: [] })
    return actual
  }

  /** The occurrences on disk now (the expected answer). */
  onDisk(): string[] {
    return occurrencesOnDisk(this.root, this.c)
  }

  /** Asserts the disk (what the test will compare against) has, or has not, an occurrence in `file`. */
  expectOnDisk(file: string, present: boolean): void {
    const inFile = occurrencesOnDisk(this.root, this.c).some((k) => k.startsWith(`${file}:`))
    expect(inFile, `${file} ${present ? 'uses' : 'does not use'} ${this.c.symbol} on disk`).toBe(present)
  }

  /** Writes a file (a plain write), then the module declarations the language needs. */
  write(file: string, text: string): void {
    const path = nodePath.join(this.root, file)
    mkdirSync(nodePath.dirname(path), { recursive: true })
    writeFileSync(path, text)
    this.c.declareModules?.(this.root)
  }

  /** Writes many files, then the module declarations once. */
  writeAll(files: ReadonlyArray<readonly [string, string]>): void {
    for (const [file, text] of files) {
      const path = nodePath.join(this.root, file)
      mkdirSync(nodePath.dirname(path), { recursive: true })
      writeFileSync(path, text)
    }
    this.c.declareModules?.(this.root)
  }

  /** A new file that uses the symbol. */
  create(file: string): void {
    this.write(file, this.c.using(file))
  }

  /** The use removed: the file rewritten without any occurrence of the symbol. */
  removeUse(file: string): void {
    this.write(file, this.c.plain(file))
  }

  /** One more use appended to an existing file (a plain write of the whole new text). */
  appendUse(file: string): void {
    const path = nodePath.join(this.root, file)
    writeFileSync(path, readFileSync(path, 'utf8') + this.c.appended(file))
  }

  /** Restores a file's text as it was before appendUse. */
  setText(file: string, text: string): void {
    writeFileSync(nodePath.join(this.root, file), text)
  }

  text(file: string): string {
    return readFileSync(nodePath.join(this.root, file), 'utf8')
  }

  delete(file: string): void {
    unlinkSync(nodePath.join(this.root, file))
    this.c.declareModules?.(this.root)
  }

  deleteAll(files: ReadonlyArray<string>): void {
    for (const file of files) unlinkSync(nodePath.join(this.root, file))
    this.c.declareModules?.(this.root)
  }

  rename(from: string, to: string): void {
    mkdirSync(nodePath.dirname(nodePath.join(this.root, to)), { recursive: true })
    renameSync(nodePath.join(this.root, from), nodePath.join(this.root, to))
    this.c.declareModules?.(this.root)
  }
}
