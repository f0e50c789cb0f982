import { readFileSync } from 'node:fs'

import { LspError } from '@codeseam/lsp'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/**
 * The tool manifest: what `codeseam --help` and MCP `tools/list` say about each tool, written at build time
 * (dist/tools.json) from the real tool definitions, so neither has to load the tools (and effect) to answer.
 * test/tool-manifest.test.ts checks that the built file equals what the live code computes.
 */

/** One tool, as the help and the MCP listing show it. */
export interface ToolManifestEntry {
  readonly name: string
  /** Its CLI command (`code_navigate` → `navigate`). */
  readonly command: string
  readonly title: string
  readonly readOnly: boolean
  /** The MCP tool (`toMcpTool`): name, title, description, JSON Schemas, annotations. */
  readonly mcp: Tool
}

/** Every tool, in the order `collectTools()` lists them. */
export type ToolManifest = ReadonlyArray<ToolManifestEntry>

/** The built manifest's file name, next to the bundle. */
export const toolManifestFile = 'tools.json'

/**
 * The manifest: the built file next to this module (dist/tools.json), or, when running from source (no
 * build), computed from the live tool definitions.
 */
export async function loadToolManifest(): Promise<ToolManifest> {
  let text: string | undefined
  try {
    text = readFileSync(new URL(`./${toolManifestFile}`, import.meta.url), 'utf8')
  } catch {
    text = undefined
  }
  if (text !== undefined) return JSON.parse(text) as ToolManifest
  const { liveToolManifest } = await import('./tool-manifest-live.js')
  return liveToolManifest()
}

/** Selection options, as `collectTools` takes them. */
export interface ManifestSelection {
  readonly readOnly?: boolean
  readonly disable?: ReadonlyArray<string>
  readonly enable?: ReadonlyArray<string>
}

/**
 * `collectTools(selection)` on the manifest: the same names in the same order, and the same NOT_FOUND error
 * for an unknown name (`selectTools` of @codeseam/tool-lsp; test/tool-manifest.test.ts compares the two).
 */
export function selectFromManifest(manifest: ToolManifest, selection: ManifestSelection = {}): ToolManifestEntry[] {
  const names = new Set(manifest.map((t) => t.name))
  for (const name of [...(selection.enable ?? []), ...(selection.disable ?? [])]) {
    if (!names.has(name)) {
      throw new LspError('NOT_FOUND', `no tool is named "${name}" (tools: ${[...names].join(', ')})`, { data: { nearest: [...names] } })
    }
  }
  const enabled = selection.enable === undefined ? undefined : new Set(selection.enable)
  const disabled = new Set(selection.disable ?? [])
  const selected = manifest.filter((t) => (enabled === undefined || enabled.has(t.name)) && !disabled.has(t.name))
  return selection.readOnly === true ? selected.filter((t) => t.readOnly) : selected
}
