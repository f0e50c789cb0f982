import type { DocumentSymbol, Hover, Location, LocationLink, SymbolInformation } from 'vscode-languageserver-protocol'

import { FloorClient, type ServerCommand } from '../floor-client.js'
import type { ReadQuery } from '../read-mix.js'
import { floorHoldsSubtypes } from '../type-hierarchy.js'
import { agreesWithFloor, floorNormal } from '../wide-mix.js'
import { jsonBytes, relativeTo, type ReadLayer } from './read-layer.js'

function hoverText(hover: Hover | null): string {
  if (hover === null) return ''
  const { contents } = hover
  if (typeof contents === 'string') return contents
  if (Array.isArray(contents)) return contents.map((part) => (typeof part === 'string' ? part : part.value)).join('\n')
  return contents.value
}

function symbolNames(symbols: ReadonlyArray<DocumentSymbol | SymbolInformation>): string[] {
  return symbols.flatMap((symbol) => [symbol.name, ...('children' in symbol ? symbolNames(symbol.children ?? []) : [])])
}

function locations(answer: unknown): Array<Location | LocationLink> {
  if (answer === null || answer === undefined) return []
  return (Array.isArray(answer) ? answer : [answer]) as Array<Location | LocationLink>
}

/** The floor as a layer: raw protocol answers, checked in their raw shape. */
export async function startFloorLayer(
  server: ServerCommand,
  root: string,
  options: Parameters<typeof FloorClient.start>[2] = {},
): Promise<ReadLayer & { client: FloorClient }> {
  const client = await FloorClient.start(server, root, options)
  return {
    layer: 'floor',
    inProcess: false,
    client,
    run: (query: ReadQuery) => client.run(query),
    verify(query, answer) {
      // The wider mix: the floor must keep giving the answer it settled on.
      if (query.expect.floor !== undefined)
        return agreesWithFloor(query.operation, query.expect.floor, floorNormal(root, query.operation, answer))
      switch (query.operation) {
        case 'definition':
          return locations(answer).some((l) => relativeTo(root, 'targetUri' in l ? l.targetUri : l.uri) === query.expect.file)
        case 'references':
          return locations(answer).length >= (query.expect.minLocations ?? 1)
        case 'hover':
          return hoverText(answer as Hover | null).includes(query.expect.hoverIncludes ?? '')
        case 'documentSymbols':
          return symbolNames((answer ?? []) as DocumentSymbol[]).includes(query.expect.symbolName ?? '')
        case 'typeHierarchy':
          return floorHoldsSubtypes(root, query, answer)
        default:
          return false
      }
    },
    locationCount: (answer) => locations(answer).length,
    truncated: () => false,
    outputBytes: jsonBytes,
    pids: () => (client.process.pid === undefined ? [] : [client.process.pid]),
    stop: () => client.stop(),
  }
}
