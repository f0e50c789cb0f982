// The class-header reader a derived type hierarchy is built on (RFC 0010): the bases after a type's name,
// what an alias names, and whether a declaration stops at its name. Every offset is found by text.
import { describe, expect, it } from 'vitest'

import { aliasedName, baseEntries, declarationOnly, type BaseEntry } from '../src/derive/header.js'

/** The offset just past the first `name` in `text` (where a server's name range ends). */
function nameEnd(text: string, name: string): number {
  const at = text.indexOf(name)
  if (at === -1) throw new Error(`${name} not in ${text}`)
  return at + name.length
}

/** The bases read after `name`, as written, with the text at each `lastStart` checked to be the last part. */
function bases(text: string, name: string): string[] {
  const entries = baseEntries(text, nameEnd(text, name))
  for (const entry of entries) {
    const last = entry.name.split(/::|\./).at(-1)!
    expect(text.slice(entry.lastStart, entry.lastStart + last.length)).toBe(last)
    expect(text.slice(entry.start, entry.end)).toBe(entry.name)
  }
  return entries.map((e) => e.name)
}

function alias(text: string, name: string): BaseEntry | undefined {
  const start = text.indexOf(name)
  const lineStart = text.lastIndexOf('\n', start) + 1
  return aliasedName(text, start, start + name.length, lineStart)
}

describe('baseEntries', () => {
  it('reads TypeScript and Java-like headers: type parameters skipped, extends and implements lists', () => {
    expect(bases('export class Circle<T extends Shape<T>> extends Base<T> implements Shape, Named {', 'Circle')).toEqual([
      'Base',
      'Shape',
      'Named',
    ])
    expect(bases('interface Both extends A, ns.Deep<string> {}', 'Both')).toEqual(['A', 'ns.Deep'])
    expect(bases('public final class Foo<T> extends Bar<T> implements Baz, java.io.Serializable {', 'Foo')).toEqual([
      'Bar',
      'Baz',
      'java.io.Serializable',
    ])
  })

  it('reads Python headers: keyword arguments and unpacking left out, calls marked', () => {
    expect(bases('class Dog(Animal, Crate[int], metaclass=abc.ABCMeta):\n    pass\n', 'Dog')).toEqual(['Animal', 'Crate'])
    expect(bases('class P[T](Base[T], *extra):\n    pass\n', 'P')).toEqual(['Base'])
    const call = baseEntries('class C(with_mixin(Base)):\n    pass\n', nameEnd('class C(', 'C'))
    expect(call.map((e) => [e.name, e.call])).toEqual([['with_mixin', true]])
    expect(bases('class Plain:\n    def f(self): ...\n', 'Plain')).toEqual([])
  })

  it('reads C++ headers: access and virtual, qualified and global names, final, templates, comments', () => {
    expect(bases('class Rectangle final : public ::geo::Polygon {', 'Rectangle')).toEqual(['::geo::Polygon'])
    const polygon = baseEntries('class Rectangle final : public ::geo::Polygon {', nameEnd('class Rectangle', 'Rectangle'))[0]!
    expect(polygon.lastStart).toBe('class Rectangle final : public ::geo::'.length)
    expect(bases('class Polygon : public Shape, protected detail::Tagged {', 'Polygon')).toEqual(['Shape', 'detail::Tagged'])
    expect(bases('struct Right : virtual public Node {};', 'Right')).toEqual(['Node'])
    expect(bases('struct Joined final : Left,\n                      Right {};', 'Joined')).toEqual(['Left', 'Right'])
    expect(bases('struct Deep : Outer::Inner, // the nested one\n  private Left /* and a side */ {};', 'Deep')).toEqual([
      'Outer::Inner',
      'Left',
    ])
    expect(bases('template <typename T> class Labeled : public Crate<Box<T>>, virtual public T {};', 'Labeled')).toEqual(['Crate', 'T'])
    expect(bases('class Widget : public Counter<Widget> {};', 'Widget')).toEqual(['Counter'])
    // A specialization's arguments follow the name the server reports (`Box`), before the bases.
    expect(bases('template <typename T> class Box<T *> : public Left {};', 'Box')).toEqual(['Left'])
    expect(bases('struct [[deprecated("old")]] alignas(8) Old : Node {};', 'Old')).toEqual(['Node'])
    expect(bases('struct Solid /* a base comment */ : geo::Shape {', 'Solid')).toEqual(['geo::Shape'])
  })

  it('finds no base in a forward declaration or a class without bases', () => {
    expect(bases('class Circle;\nclass Other : public Shape {};', 'Circle')).toEqual([])
    expect(bases('class Shape {\npublic:\n  Shape() : x(1) {}\n};', 'Shape')).toEqual([])
  })
})

describe('declarationOnly', () => {
  it('is true where the statement ends at the name (C and C++ forward declarations)', () => {
    expect(declarationOnly('class Circle; // defined in circle.h', nameEnd('class Circle', 'Circle'))).toBe(true)
    expect(declarationOnly('  class Later ;', nameEnd('  class Later', 'Later'))).toBe(true)
    expect(declarationOnly('template <> struct Box<bool>;', nameEnd('template <> struct Box', 'Box'))).toBe(true)
  })

  it('is false for definitions, bases and other languages', () => {
    for (const [text, name] of [
      ['class Circle : public Shape {', 'Circle'],
      ['class Shape {', 'Shape'],
      ['template <typename T> class Box {', 'Box'],
      ['class Dog(Animal):', 'Dog'],
      ['export class A<T> extends B {', 'A'],
      ['using IntBox = Box<int>;', 'IntBox'],
    ] as const) {
      expect(declarationOnly(text, nameEnd(text, name)), text).toBe(false)
    }
  })
})

describe('aliasedName', () => {
  it('reads alias declarations: using, typedef (elaborated too), alias templates, TypeScript and Python', () => {
    expect(alias('using IntBox = Box<int>;', 'IntBox')?.name).toBe('Box')
    expect(alias('template <typename T> using CrateOf = Crate<T>;', 'CrateOf')?.name).toBe('Crate')
    expect(alias('typedef geo::Shape ShapeBase;', 'ShapeBase')?.name).toBe('geo::Shape')
    expect(alias('typedef struct Node NodeT;', 'NodeT')?.name).toBe('Node')
    expect(alias('export type Shape2 = ns.Shape<number>', 'Shape2')?.name).toBe('ns.Shape')
    expect(alias('Crate: TypeAlias = Box\n', 'Crate')?.name).toBe('Box')
  })

  it('is undefined for composite types, calls and declarations that alias nothing', () => {
    expect(alias('type Both = A & B', 'Both')).toBeUndefined()
    expect(alias('Made = make_class(Base)\n', 'Made')).toBeUndefined()
    expect(alias('class IntCrate : public IntBox {};', 'IntCrate')).toBeUndefined()
    // A using-declaration brings a name in; it is not read as an alias (clangd's references stop at it anyway).
    expect(alias('using geo::Polygon;', 'Polygon')).toBeUndefined()
  })
})
