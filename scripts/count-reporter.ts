import type { Reporter, TestModule } from 'vitest/node'

/** Prints the closing `N passed, N failed, N skipped` line that CI reads. */
export default class CountReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      // A module that failed to load has no tests to count, and one whose hook failed (afterAll) may have
      // only passing tests: either is a failure all the same.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((test) => test.result().state === 'failed')) failed++
    }
    failed += unhandledErrors.length
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
