// Regenerates docs/performance.md and docs/performance.svg from the committed docs/performance.json.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

import { writeDocs } from './docs-writer.js'
import type { BenchReport } from './report.js'

const docs = fileURLToPath(new URL('../../docs/', import.meta.url))
const report = JSON.parse(await readFile(`${docs}performance.json`, 'utf8')) as BenchReport
const written = await writeDocs(report, docs)
process.stdout.write(`wrote ${written.join(', ')}\n`)
