import { defineProject, type UserWorkspaceConfig } from 'vitest/config'

/** Test deadlines for suites that run real language servers on a shared 2-core machine: generous, never sleeps. */
export const realServerDeadlines = { testTimeout: 120_000, hookTimeout: 120_000 }

/**
 * A package's test project: its test/**\/*.test.ts against the workspace packages' sources (the `@codeseam/source`
 * condition, so nothing needs building first); `test` adds to the test options.
 */
export function packageProject(test: NonNullable<UserWorkspaceConfig['test']> = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions: ['@codeseam/source'] },
    ssr: { resolve: { conditions: ['@codeseam/source'] } },
    test: { include: ['test/**/*.test.ts'], ...test },
  })
}
