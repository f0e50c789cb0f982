import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

import { expect, test } from 'vitest'

// The committed bindings are what buf and protoc-gen-es (the pinned devDependency) generate from proto/scip.proto
// today: nobody edited them by hand, and a new proto or plugin version shows up here.

const packageDir = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..')
const install = 'go install github.com/bufbuild/buf/cmd/buf@v1.75.0'

function findBuf(): string | undefined {
  // Where `codeseam install protobuf` (and CI's scripts/install-language-servers.mjs) puts it: Go's bin folders.
  const goBins = [
    process.env.GOBIN,
    ...(process.env.GOPATH ?? '').split(nodePath.delimiter).map((dir) => (dir === '' ? undefined : nodePath.join(dir, 'bin'))),
    nodePath.join(homedir(), 'go', 'bin'),
  ]
  const candidates = [...(process.env.PATH ?? '').split(nodePath.delimiter), ...goBins]
    .filter((dir): dir is string => dir !== undefined && dir !== '')
    .map((dir) => nodePath.join(dir, 'buf'))
  return candidates.find((path) => existsSync(path))
}

const buf = findBuf()

if (buf === undefined && process.env.CI !== 'true') {
  console.log(`SKIPPED the generated-bindings check: buf is not installed (${install})`)
  test.skip(`src/generated/scip_pb.ts equals a fresh generation from proto/scip.proto: buf is missing (${install})`, () => {})
} else {
  test('src/generated/scip_pb.ts equals a fresh generation from proto/scip.proto', { timeout: 120_000 }, async () => {
    expect(buf, `under CI=true buf must be installed: ${install}`).toBeDefined()
    const out = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-scip-generate-'))
    try {
      await promisify(execFile)(buf ?? 'buf', ['generate', 'proto', '--template', 'buf.gen.yaml', '--output', out], { cwd: packageDir })
      const fresh = await readFile(nodePath.join(out, 'src/generated/scip_pb.ts'), 'utf8')
      const committed = await readFile(nodePath.join(packageDir, 'src/generated/scip_pb.ts'), 'utf8')
      expect(fresh === committed, 'regenerate with `pnpm --filter @codeseam/lsp-index generate` and commit the result').toBe(true)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })
}
