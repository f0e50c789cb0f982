import { defineProject } from 'vitest/config'

export default defineProject({
  resolve: { conditions: ['@codeseam/source'] },
  ssr: { resolve: { conditions: ['@codeseam/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Real language servers on a 2-core machine shared with other suites: generous deadlines, never sleeps.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
