import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/*', 'reliability', 'bench', 'packaging'],
    reporters: ['default', './scripts/count-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
