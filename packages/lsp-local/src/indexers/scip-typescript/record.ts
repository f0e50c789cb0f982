import type { IndexerRecord } from '../record.js'

/**
 * scip-typescript (npm, Apache-2.0): Sourcegraph's SCIP indexer for TypeScript and JavaScript, what `codeseam index`
 * runs. 0.4.0 runs on Node 20 and bundles TypeScript 5.9 (its own dependency, resolved from its install folder,
 * never the workspace's). Its package bin is a `#!/usr/bin/env node` script: codeseam runs `entry` with its own Node.
 */
export const scipTypescriptRecord: IndexerRecord = {
  id: 'scip-typescript',
  language: 'TypeScript / JavaScript',
  indexer: 'scip-typescript (npm, 0.4.0): SCIP indexes for `codeseam index`',
  install: { purl: 'pkg:npm/@sourcegraph/scip-typescript@0.4.0', bin: ['scip-typescript'] },
  entry: 'dist/src/main.js',
  compiler: 'typescript',
}
