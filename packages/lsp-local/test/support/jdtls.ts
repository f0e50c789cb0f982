// The JDT LS marker tests' preamble: the built-in profile and a JDK 21+, or a skipped test saying why (never under
// CI=true, where a built-in server that is not installed fails the test instead).
import { test } from 'vitest'

import { builtinProfiles } from '../../src/index.js'
import { findJdk, type Jdk } from '../../src/languages/jdtls/jdk.js'
import type { ServerProfile } from '../../src/profile/profiles.js'

export interface JdtlsSetup {
  readonly profile: ServerProfile | undefined
  readonly jdk: Jdk | undefined
  /** Why JDT LS cannot run here (set only under CI=true, where the test asserts it is undefined). */
  readonly why: string | undefined
}

/**
 * Called at the top of a `describe` callback: the profile and the JDK, or undefined after registering a skipped test
 * (the caller returns). `what` names the test in the SKIPPED line.
 */
export async function skipUnlessJdtls(what: string): Promise<JdtlsSetup | undefined> {
  const profile = (await builtinProfiles()).find((p) => p.id === 'jdtls')
  const { jdk } = findJdk()
  const why = profile?.unavailable ?? (jdk === undefined ? 'no JDK 21+' : undefined)
  if (why !== undefined && process.env['CI'] !== 'true') {
    console.log(`SKIPPED ${what}: ${why}`)
    test.skip(`jdtls: ${why}`, () => {})
    return undefined
  }
  return { profile, jdk, why }
}
