import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

/**
 * Fixture projects written into fresh temp dirs, for the real-server integration tests and the docs
 * generator. Positions are found in them by text (see {@link Project.lineOf}).
 */

export interface Project {
  readonly root: string
  readonly files: Readonly<Record<string, string>>
  /** 1-based line of the `occurrence`-th line of `file` containing `needle`. */
  lineOf(file: string, needle: string, occurrence?: number): number
  /** 1-based column where `needle` starts on the `occurrence`-th line of `file` containing it. */
  columnOf(file: string, needle: string, occurrence?: number): number
  remove(): Promise<void>
}

async function writeProject(prefix: string, files: Record<string, string>): Promise<Project> {
  const root = await realpath(await mkdtemp(nodePath.join(tmpdir(), prefix)))
  for (const [relative, text] of Object.entries(files)) {
    const path = nodePath.join(root, relative)
    await mkdir(nodePath.dirname(path), { recursive: true })
    await writeFile(path, text)
  }
  const lineOf = (file: string, needle: string, occurrence = 0): number => {
    const lines = (files[file] ?? '').split('\n')
    let seen = 0
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.includes(needle) && seen++ === occurrence) return i + 1
    }
    throw new Error(`${file} has no line #${occurrence} containing ${JSON.stringify(needle)}`)
  }
  return {
    root,
    files,
    lineOf,
    columnOf(file, needle, occurrence = 0) {
      const line = (files[file] ?? '').split('\n')[lineOf(file, needle, occurrence) - 1]!
      return line.indexOf(needle) + 1
    },
    remove: () => rm(root, { recursive: true, force: true }),
  }
}

/** Files that each call `track` this many times: with the import, (callsPerFile + 1) references per file. */
export const callsPerFile = 6

/** A TypeScript project: shapes with an interface and two implementations, a widely used function, an error. */
export function typeScriptFiles(generatedFiles: number): Record<string, string> {
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify(
      { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true }, include: ['src'] },
      null,
      2,
    ),
    'src/telemetry.ts': [
      'let total = 0',
      '',
      '/** Records one telemetry event and returns the running total weight. */',
      'export function track(event: string, weight: number): number {',
      '  total += weight',
      '  return total',
      '}',
      '',
    ].join('\n'),
    'src/shapes.ts': [
      '/** Something with an area. */',
      'export interface Shape {',
      '  readonly name: string',
      '  area(): number',
      '}',
      '',
      'export class Circle implements Shape {',
      "  readonly name = 'circle'",
      '  constructor(readonly radius: number) {}',
      '  area(): number {',
      '    return Math.PI * this.radius * this.radius',
      '  }',
      '}',
      '',
      'export class Square implements Shape {',
      "  readonly name = 'square'",
      '  constructor(readonly side: number) {}',
      '  area(): number {',
      '    return this.side * this.side',
      '  }',
      '}',
      '',
      'export function describe(shape: Shape): string {',
      '  return `${shape.name}: ${shape.area()}`',
      '}',
      '',
    ].join('\n'),
    'src/main.ts': [
      "import { track } from './telemetry'",
      "import { Circle, describe, Square } from './shapes'",
      '',
      'export function report(): string {',
      '  const circle = new Circle(2)',
      "  const weight = track('report', circle.area())",
      '  const label = describe(new Square(3))',
      '  return `${label} ${weight}`',
      '}',
      '',
      'export function run(): void {',
      '  const shown = report()',
      '  console.log(shown)',
      '}',
      '',
    ].join('\n'),
    'src/broken.ts': ["export const count: number = 'three'", '', 'function unusedHelper(): void {}', ''].join('\n'),
    'notes/build.php': "<?php echo 'no php server here';\n",
  }
  for (let i = 0; i < generatedFiles; i++) {
    const calls = Array.from({ length: callsPerFile }, (_, n) => `  track('user${i}.event${n}', ${n + 1})`)
    files[`src/gen/user${String(i).padStart(3, '0')}.ts`] = [
      "import { track } from '../telemetry'",
      '',
      `export function user${i}(): void {`,
      ...calls,
      '}',
      '',
    ].join('\n')
  }
  return files
}

/** A Python project for pyright. */
export function pythonFiles(): Record<string, string> {
  return {
    'pyproject.toml': '[tool.pyright]\ninclude = ["app"]\n',
    'app/__init__.py': '',
    'app/animals.py': [
      'class Animal:',
      '    """An animal that can speak."""',
      '',
      '    def speak(self) -> str:',
      '        return "..."',
      '',
      '',
      'class Dog(Animal):',
      '    def speak(self) -> str:',
      '        return "woof"',
      '',
      '',
      'def greet(animal: Animal, times: int) -> str:',
      '    """Greets an animal a number of times."""',
      '    return animal.speak() * times',
      '',
    ].join('\n'),
    'app/boxes.py': [
      'from typing import Generic, TypeVar',
      '',
      'T = TypeVar("T")',
      '',
      '',
      'class Crate(Generic[T]):',
      '    pass',
      '',
    ].join('\n'),
    'app/main.py': [
      'from app.animals import Dog, greet',
      '',
      '',
      'def main() -> str:',
      '    dog = Dog()',
      '    return greet(dog, 2)',
      '',
    ].join('\n'),
    'app/broken.py': 'count: int = "three"\n',
  }
}

/**
 * A Rust crate with two errors `cargo check` reports (E0382 use of a moved value, E0499 two mutable borrows)
 * and rust-analyzer's own analysis does not: borrow checking is the compiler's.
 */
export function rustFiles(): Record<string, string> {
  return {
    'Cargo.toml': '[package]\nname = "unseen"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    'src/lib.rs': [
      'pub fn moved() -> usize {',
      '    let name = String::from("codeseam");',
      '    let taken = name;',
      '    name.len() + taken.len()',
      '}',
      '',
      'pub fn borrowed_twice() -> usize {',
      '    let mut items = vec![1];',
      '    let first = &mut items;',
      '    let second = &mut items;',
      '    first.push(2);',
      '    second.push(3);',
      '    items.len()',
      '}',
      '',
    ].join('\n'),
  }
}

/** Writes the Rust crate. */
export function rustProject(): Promise<Project> {
  return writeProject('tool-lsp-rs-', rustFiles())
}

/** Writes the TypeScript project. */
export function typeScriptProject(generatedFiles = 40): Promise<Project> {
  return writeProject('tool-lsp-ts-', typeScriptFiles(generatedFiles))
}

/** Writes the Python project. */
export function pythonProject(): Promise<Project> {
  return writeProject('tool-lsp-py-', pythonFiles())
}

/** A Go module: a struct with a pointer-receiver and a value-receiver method, an interface and a type implementing it. */
export function goNamesFiles(): Record<string, string> {
  return {
    'go.mod': 'module example.com/names\n\ngo 1.22\n',
    'names.go': [
      'package names',
      '',
      'import "fmt"',
      '',
      '// DemoStruct holds a value.',
      'type DemoStruct struct {',
      '\tvalue int',
      '}',
      '',
      '// Value returns the value (a pointer receiver).',
      'func (d *DemoStruct) Value() int {',
      '\treturn d.value',
      '}',
      '',
      '// Label names it (a value receiver).',
      'func (d DemoStruct) Label() string {',
      '\treturn fmt.Sprint(d.Value())',
      '}',
      '',
      '// Greeter formats greetings.',
      'type Greeter interface {',
      '\tFormatGreeting(name string) string',
      '}',
      '',
      '// ConsoleGreeter greets on the console.',
      'type ConsoleGreeter struct{}',
      '',
      '// FormatGreeting greets by name.',
      'func (ConsoleGreeter) FormatGreeting(name string) string {',
      '\treturn "hello " + name',
      '}',
      '',
      '// Greet greets through any Greeter.',
      'func Greet(g Greeter) string {',
      '\treturn g.FormatGreeting(DemoStruct{}.Label())',
      '}',
      '',
    ].join('\n'),
  }
}

/** Writes the Go project. */
export function goNamesProject(): Promise<Project> {
  return writeProject('tool-lsp-go-', goNamesFiles())
}
