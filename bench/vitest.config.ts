import { defineProject } from 'vitest/config'

export default defineProject({
  resolve: { conditions: ['@codeseam/source'] },
  ssr: { resolve: { conditions: ['@codeseam/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
  },
})
