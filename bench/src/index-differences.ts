// The differences docs/index.md lists between an index's references and the TypeScript server's, recognised in a
// first answer from the index (issue 52: "index answers equal the live server's … except the differences listed").
// A location the oracle has and the answer lacks is put in a category only by what the index itself holds there,
// the cause docs/index.md names; anything else (and any extra location) leaves the answer incomplete.

import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { definitionRole, parseSymbol, readScipIndex, ScipIndex } from '@codeseam/lsp-index'

/** The listed differences this bench recognises, named as docs/index.md names them. */
export const listedDifferenceNames = {
  namedReexport: 'a name reached through a named re-export (a local symbol in the index)',
  shadowedExportStar: 'a name an `export *` re-exports, shadowed by an explicit export',
} as const

export type ListedDifference = keyof typeof listedDifferenceNames

/** An oracle key `path@l:c-l:c` → its path and start. */
function parseKey(key: string): { path: string; line: number; character: number } | undefined {
  const match = /^(.*)@(\d+):(\d+)-\d+:\d+$/.exec(key)
  if (match === null) return undefined
  return { path: match[1]!, line: Number(match[2]), character: Number(match[3]) }
}

/** The name a global symbol declares, a constructor's being its class's. */
function declaredName(symbol: string): string | undefined {
  const { descriptors } = parseSymbol(symbol)
  const last = descriptors[descriptors.length - 1]
  if (last?.name === '<constructor>') return descriptors[descriptors.length - 2]?.name
  return last?.name
}

/** Classifies the locations an index's answer lacks against the oracle, by what the index holds at each. */
export class IndexDifferences {
  private constructor(
    private readonly index: ScipIndex,
    private readonly root: string,
  ) {}

  /** The index at `indexFile` of the workspace at `root` (whose files are read for the text at a location). */
  static async read(indexFile: string, root: string): Promise<IndexDifferences> {
    return new IndexDifferences(new ScipIndex(await readScipIndex(indexFile)), root)
  }

  private textAt(path: string, line: number, character: number, length: number): string {
    const lines = readFileSync(nodePath.join(this.root, ...path.split('/')), 'utf8').split('\n')
    return (lines[line] ?? '').slice(character, character + length)
  }

  /**
   * The category of one missing location of the references of the symbol declared at `at` (its name, relative
   * path), or undefined when the index holds nothing there that a listed difference explains.
   */
  classify(
    at: { readonly path: string; readonly line: number; readonly character: number },
    missing: string,
  ): ListedDifference | undefined {
    const place = parseKey(missing)
    if (place === undefined) return undefined
    const wanted = this.index.symbolsAt(at.path, at).filter((symbol) => !symbol.startsWith('local '))
    const name = wanted.map(declaredName).find((n) => n !== undefined)
    const document = this.index.document(place.path)
    if (name === undefined || document === undefined) return undefined
    const symbols = this.index.symbolsAt(place.path, place)
    if (symbols.length === 0) return undefined
    // A local symbol the document never defines: the alias of a re-export, named at a renamed import or a namespace
    // member. Only where the document's text there is the symbol's name.
    const undefinedLocal = (symbol: string) =>
      symbol.startsWith('local ') &&
      !document.occurrences.some((o) => `${o.symbol}\0${place.path}` === symbol && (o.roles & definitionRole) !== 0)
    if (symbols.every(undefinedLocal) && this.textAt(place.path, place.line, place.character, name.length) === name) return 'namedReexport'
    // Another global symbol of the same name (not the asked one nor its constructor): the declaration that wins.
    const others = symbols.filter((symbol) => !symbol.startsWith('local ') && !wanted.some((w) => symbol.startsWith(w)))
    if (others.length === symbols.length && others.every((symbol) => declaredName(symbol) === name)) return 'shadowedExportStar'
    return undefined
  }
}

/** `76 a name …, 8 a name …` for a report line. */
export function listedDifferencesText(counts: Partial<Record<ListedDifference, number>> | undefined): string {
  return Object.entries(counts ?? {})
    .map(([name, count]) => `${listedDifferenceNames[name as ListedDifference]}: ${count}`)
    .join(', ')
}
