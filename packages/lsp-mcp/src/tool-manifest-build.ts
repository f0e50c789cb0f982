import { writeFileSync } from 'node:fs'

import { toolManifestFile } from './tool-manifest.js'
import { liveToolManifest } from './tool-manifest-live.js'

/**
 * Build step (tsup's onSuccess runs this built module): writes the tool manifest next to the bundle. Not part
 * of the CLI's run time.
 */
export function writeToolManifest(dir: URL): void {
  writeFileSync(new URL(toolManifestFile, dir), `${JSON.stringify(liveToolManifest())}\n`)
}
