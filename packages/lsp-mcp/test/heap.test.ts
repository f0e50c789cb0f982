import { execFileSync } from 'node:child_process'

import { expect, test } from 'vitest'

import { heapFlags } from '../src/heap.js'

// The `codeseam` executable keeps its heap small with V8 flags set at run time (src/heap.ts; their effect on
// resident memory is measured by `pnpm bench`, docs/performance.md). V8 flags come and go between Node versions, and
// an unknown one is ignored without a word: this fails when the running Node no longer has one of them.
test("the running Node's V8 still has every flag the executable sets", () => {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
  for (const flag of heapFlags) expect(options, flag).toContain(`${flag.split('=')[0] ?? ''} (`)
})
