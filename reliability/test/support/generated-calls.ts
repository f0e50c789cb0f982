// Schema-valid tool arguments generated with fast-check from a tool's JSON Schema: every object, array,
// enum, integer range and nullable field comes from the schema; the strings come from pools chosen by the
// property's name (paths that exist and don't, paths that escape the root, symbols, code, names, hashes,
// cursors), mixed with arbitrary and unicode strings. Used by fuzz.test.ts; ajv stays the judge of validity.
import fc from 'fast-check'

import { propertySlots } from './malformed.js'
import { withSlot, type JsonSchema } from './schema-slots.js'

/** Where the fixture is, for absolute paths into it and out of it. */
export interface PathPlaces {
  readonly root: string
  readonly outside: string
}

/** Arbitrary strings of every kind: ASCII, full unicode, graphemes (emoji, combining marks), control chars. */
const oddString = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', ' ', '\t', '\n', '\r\n', '\u0000', '\u200b', '\ufeff', '\ud800', '🎉', 'é', 'e\u0301', 'Ω≈ç√', '../', '%00', '${x}'),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
)

function pathPool(places: PathPlaces): fc.Arbitrary<string> {
  return fc.oneof(
    // Files and folders that exist, spelled plainly and not.
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'src/a.ts',
        'src/b.ts',
        'lib/c.ts',
        './src/a.ts',
        'src//a.ts',
        'src/./b.ts',
        'lib/../src/a.ts',
        'SRC/A.TS',
        'tsconfig.json',
        'package.json',
        'src',
        'src/',
        '.',
        '',
        `${places.root}/src/a.ts`,
        `file://${places.root}/src/b.ts`,
      ),
    },
    // Files that do not exist, inside the root.
    {
      weight: 2,
      arbitrary: fc.constantFrom('src/missing.ts', 'src/a.tsx', 'new/dir/x.ts', 'src/a.ts/inner.ts', 'lib/c.js', '.hidden.ts'),
    },
    // Paths that leave the root: every one must be refused, and the sentinel never read or written.
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '../outside/secret.ts',
        '../outside/created.ts',
        'src/../../outside/secret.ts',
        `${places.outside}/secret.ts`,
        `${places.outside}/created.ts`,
        `file://${places.outside}/secret.ts`,
        'links/escape.ts',
        'links/outside-dir/secret.ts',
        'links/outside-dir/created.ts',
        '..%2Foutside%2Fsecret.ts',
        '/etc/passwd',
      ),
    },
    // Odd names, alone and as a file in src/.
    { weight: 2, arbitrary: oddString },
    { weight: 1, arbitrary: oddString.map((s) => `src/${s}.ts`) },
  )
}

const symbolPool = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('greet', 'message', 'other', 'name', 'greet.name', 'Greet', 'greet.', '.greet', 'greet.x.y') },
  { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '*', 'default', 'export') },
  { weight: 2, arbitrary: oddString },
)

const codePool = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'export const inserted = 1',
      "export function greet(): string {\n  return 'replaced'\n}",
      "export function greet(name: string): string {\n  return 'hi ' + name\n}",
      '}',
      '{',
      '/* unclosed',
      "'unclosed",
      '// 🎉 ünïcödé\nexport const ü = "🎉"',
      'export const a = 1\r\nexport const b = 2\r\n',
      'import { nothing } from "./nowhere.js"',
      '',
    ),
  },
  { weight: 2, arbitrary: oddString },
)

const identifierPool = fc.oneof(
  fc.constantFrom('welcome', 'greet', 'message', 'x', '_', '$', 'ñame', 'Ω', 'class', 'default', '1abc', 'a b', 'a-b', 'greet2'),
  oddString,
)

const hashPool = fc.oneof(
  fc.constantFrom('0'.repeat(64), 'f'.repeat(64), ''),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
  oddString,
)

const kindsPool = fc.oneof(
  fc.constantFrom('quickfix', 'refactor', 'refactor.extract', 'refactor.rewrite', 'source', 'source.organizeImports', 'source.fixAll', ''),
  oddString,
)

/** A string for a property, by its name. */
function stringFor(property: string, places: PathPlaces): fc.Arbitrary<string> {
  switch (property) {
    case 'path':
      return pathPool(places)
    case 'symbol':
      return symbolPool
    case 'matchText':
    case 'prefix':
      return fc.oneof(fc.constantFrom('greet', 'name', 'greet(', "'", 'return', 'g', 'hello'), oddString)
    case 'text':
      return codePool
    case 'newName':
      return identifierPool
    case 'hash':
      return hashPool
    case 'apply':
      return fc.oneof(fc.constantFrom('Organize Imports', 'Remove unused declaration', 'a1', '0', 'action-1'), oddString)
    case 'only':
      return kindsPool
    default:
      // cursor, rootId and anything new: arbitrary text, plus things that look like a cursor or a root.
      return fc.oneof(fc.constantFrom('0', '1', 'eyJvZmZzZXQiOjF9', 'MTAw', places.root, 'root-0'), oddString)
  }
}

/** An integer within the schema's bounds: small ones (real lines and columns), big ones, the edges. */
function integerFor(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31)
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 6) }) },
    { weight: 2, arbitrary: fc.integer({ min, max: Math.min(max, 2 ** 31 - 1) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  )
}

/** A value the schema accepts, for a property called `property` (the name picks the string pool). */
export function fromSchema(schema: JsonSchema, places: PathPlaces, property = ''): fc.Arbitrary<unknown> {
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((s) => fromSchema(s, places, property)))
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  switch (schema.type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return integerFor(schema)
    case 'string':
      return stringFor(property, places)
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, places, property), { minLength: schema.minItems ?? 0, maxLength: 3 })
    case 'object': {
      const properties = schema.properties ?? {}
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, fromSchema(child, places, name)])), {
        requiredKeys: [...(schema.required ?? [])] as never[],
      })
    }
    default:
      return fc.jsonValue()
  }
}

/**
 * Schema-valid calls of one tool: whole argument objects generated from the schema, and a valid base call
 * with one or two of its properties (at any depth) set to a generated value their schema accepts, so most
 * calls get past target resolution and reach the language server.
 */
export function generatedCalls(base: Record<string, unknown>, schema: JsonSchema, places: PathPlaces): fc.Arbitrary<[string, unknown]> {
  const slots = propertySlots(schema)
  const strategies: Array<fc.Arbitrary<[string, unknown]>> = [
    fromSchema(schema, places).map((args) => ['generated from the schema', args] as [string, unknown]),
  ]
  if (slots.length > 0) {
    const fuzzedSlot = fc
      .constantFrom(...slots)
      .chain((s) => fromSchema(s.schema, places, String(s.slot[s.slot.length - 1])).map((value) => ({ slot: s.slot, value })))
    strategies.push(
      fuzzedSlot.map(({ slot, value }) => ['valid base, one property generated', withSlot(base, slot, value)] as [string, unknown]),
      fc
        .tuple(fuzzedSlot, fuzzedSlot)
        .map(
          ([a, b]) =>
            ['valid base, two properties generated', withSlot(withSlot(base, a.slot, a.value), b.slot, b.value)] as [string, unknown],
        ),
    )
  }
  return fc.oneof(...strategies)
}
