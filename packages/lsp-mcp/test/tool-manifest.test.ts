import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { selectTools } from '@codeseam/tool-lsp'
import { describe, expect, test } from 'vitest'

import { mainHelp } from '../src/cli/help.js'
import { collectTools } from '../src/tool-set.js'
import { loadToolManifest, selectFromManifest, toolManifestFile, type ToolManifest } from '../src/tool-manifest.js'
import { liveToolManifest } from '../src/tool-manifest-live.js'

/**
 * The build writes the tool manifest (dist/tools.json) that `codeseam --help` and MCP `tools/list` answer
 * from; these tests hold it to what the live tool definitions compute, so it cannot drift.
 */

const built = fileURLToPath(new URL(`../dist/${toolManifestFile}`, import.meta.url))

function readBuilt(): ToolManifest {
  if (!existsSync(built)) throw new Error(`${built} does not exist: run \`pnpm build\` (or \`npx tsup\` in packages/lsp-mcp) first`)
  return JSON.parse(readFileSync(built, 'utf8')) as ToolManifest
}

describe('the tool manifest', () => {
  test('the built dist/tools.json equals the manifest the live tool definitions compute', () => {
    const live = liveToolManifest()
    expect(live.length).toBeGreaterThan(0)
    // Through JSON, as the built file went: what the file says is exactly what the code would list.
    expect(readBuilt()).toEqual(JSON.parse(JSON.stringify(live)))
  })

  test('running from source (no tools.json next to the module), the manifest is the live one', async () => {
    expect(await loadToolManifest()).toEqual(liveToolManifest())
  })

  test('it lists every tool collectTools lists, in its order, with its command, title and read-only hint', () => {
    const tools = collectTools()
    const manifest = liveToolManifest()
    expect(manifest.map((t) => t.name)).toEqual(tools.map((t) => t.name))
    expect(manifest.map((t) => t.readOnly)).toEqual(tools.map((t) => t.hints.readOnly))
    expect(manifest.map((t) => t.mcp.description)).toEqual(tools.map((t) => t.description))
    expect(manifest.some((t) => !t.readOnly)).toBe(true)
  })

  test('the main help from the manifest is the help from the tools', () => {
    const fromTools = mainHelp(liveToolManifest())
    expect(mainHelp(readBuilt())).toBe(fromTools)
    for (const tool of collectTools()) expect(fromTools).toContain(tool.title)
  })

  test('selecting on the manifest keeps what collectTools keeps, and fails on an unknown name with the same error', () => {
    const manifest = liveToolManifest()
    const mutating = manifest.find((t) => !t.readOnly)?.name ?? ''
    const read = manifest.find((t) => t.readOnly)?.name ?? ''
    const selections = [{}, { readOnly: true }, { disable: [read] }, { disable: [mutating], readOnly: true }, { enable: [read, mutating] }]
    for (const selection of selections) {
      expect(selectFromManifest(manifest, selection).map((t) => t.name)).toEqual(collectTools(selection).map((t) => t.name))
    }
    const unknown = { disable: ['code_teleport'] }
    const expected = (() => {
      try {
        selectTools(collectTools(), unknown)
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(expected).toBeInstanceOf(Error)
    expect(() => selectFromManifest(manifest, unknown)).toThrow(expected as Error)
    expect(() => selectFromManifest(manifest, unknown)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }) as unknown as Error)
  })
})
