import { mkdir, symlink, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { TextLines } from '@codeseam/lsp'

// The workspace of differences-reexport.test.ts (and the bench's test of recognising those differences): two
// differences between scip-typescript's index and the TypeScript server that come from re-exports.

// A workspace package whose entry point re-exports its class by name, linked into node_modules as pnpm links it.
const engine = `export class Engine {
  speed = 1
}
`
const coreIndex = `export { Engine } from './engine.js'
`
// Its class reached through the entry point: a renamed import, a namespace import's member.
const car = `import { Engine as CoreEngine } from '@rep/core'
import * as Core from '@rep/core'

export const first = new CoreEngine()
export type Made = InstanceType<typeof Core.Engine>
export const other: Core.Engine = new Core.Engine()
`

// A barrel that re-exports a module with \`export *\` and shadows one of its names with an explicit export of
// another class (tanstack's solid-query and vue-query export their own QueryClient, a subclass of query-core's).
const client = `export class Client {
  size = 1
}
`
const wrapperClient = `import { Client as CoreClient } from '../core/client.js'

export class Client extends CoreClient {
  extra = 2
}
`
const wrapperIndex = `export * from '../core/client.js'
export { Client } from './client.js'
`
const app = `import { Client } from './wrapper/index.js'

export const made: Client = new Client()
`

export const reexportFiles: Record<string, string> = {
  'packages/core/src/engine.ts': engine,
  'packages/core/src/index.ts': coreIndex,
  'src/car.ts': car,
  'src/core/client.ts': client,
  'src/wrapper/client.ts': wrapperClient,
  'src/wrapper/index.ts': wrapperIndex,
  'src/app.ts': app,
}

const options = '"strict": true, "noEmit": true, "module": "nodenext"'

/** Writes the workspace into `root` (an empty folder); its projects, as `codeseam index` names them, are returned. */
export async function writeReexportWorkspace(root: string): Promise<string[]> {
  for (const [path, text] of Object.entries(reexportFiles)) {
    await mkdir(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    await writeFile(nodePath.join(root, path), text)
  }
  await writeFile(nodePath.join(root, 'package.json'), '{ "name": "reexport", "private": true, "type": "module" }\n')
  await writeFile(nodePath.join(root, 'tsconfig.json'), `{ "compilerOptions": { ${options} }, "include": ["src"] }\n`)
  await writeFile(
    nodePath.join(root, 'packages/core/package.json'),
    '{ "name": "@rep/core", "version": "1.0.0", "type": "module", "types": "./src/index.ts", "exports": { ".": "./src/index.ts" } }\n',
  )
  await writeFile(nodePath.join(root, 'packages/core/tsconfig.json'), `{ "compilerOptions": { ${options} }, "include": ["src"] }\n`)
  await mkdir(nodePath.join(root, 'node_modules/@rep'), { recursive: true })
  await symlink('../../packages/core', nodePath.join(root, 'node_modules/@rep/core'))
  return ['.', 'packages/core']
}

/** Every position of `needle` in a file of the workspace, `offset` characters into it. */
export function positionsOf(path: string, needle: string, offset = 0): Array<{ line: number; character: number }> {
  const text = reexportFiles[path] ?? ''
  const lines = new TextLines(text)
  const found: Array<{ line: number; character: number }> = []
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) found.push(lines.positionAt(at + offset))
  return found
}
