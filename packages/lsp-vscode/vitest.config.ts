import { fileURLToPath } from 'node:url'

import { defineProject } from 'vitest/config'

// `vscode` exists only inside VS Code's extension host; tests get the faithful fake in test/fake-vscode.
const fakeVscode = fileURLToPath(new URL('./test/fake-vscode/index.ts', import.meta.url))

export default defineProject({
  resolve: { conditions: ['@codeseam/source'], alias: { vscode: fakeVscode } },
  ssr: { resolve: { conditions: ['@codeseam/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
