import { readFileSync, readdirSync, realpathSync } from 'node:fs'
import * as nodePath from 'node:path'

import { absolutePathEntries, executablesNamed, isExecutableFile } from '../lookup.js'

/** Eclipse JDT LS 1.59 needs Java 21 or newer: on 17 it never answers `initialize`. */
export const minimumJavaMajor = 21

/** A Java runtime: its `java` executable and its feature version. */
export interface Jdk {
  readonly java: string
  readonly home: string
  readonly major: number
  /** Where it was found: `JAVA_HOME`, a known JDK folder, or PATH. */
  readonly from: string
}

/** The folders JDKs are installed in on Linux and macOS (Debian's alternatives, Temurin's packages, SDKMAN, Homebrew). */
const knownJdkFolders = ['/usr/lib/jvm', '/usr/local/lib/jvm', '/opt/java', '/Library/Java/JavaVirtualMachines']

/**
 * The feature version a JDK's `release` file states (`JAVA_VERSION="25.0.3"`, `"1.8.0_402"` is 8): read, never run,
 * so finding Java starts nothing.
 */
export function jdkMajor(home: string): number | undefined {
  let text: string
  try {
    text = readFileSync(nodePath.join(home, 'release'), 'utf8')
  } catch {
    return undefined
  }
  const version = /^JAVA_VERSION="([^"]+)"/m.exec(text)?.[1]
  if (version === undefined) return undefined
  const [first = '', second = ''] = version.split('.')
  const major = Number(first === '1' ? second : first)
  return Number.isInteger(major) ? major : undefined
}

function jdkAt(home: string, from: string): Jdk | undefined {
  const java = nodePath.join(home, 'bin', 'java')
  if (!isExecutableFile(java)) return undefined
  const major = jdkMajor(home)
  return major === undefined ? undefined : { java, home, major, from }
}

/** Every JDK under the known folders, newest first (macOS bundles keep theirs in `Contents/Home`). */
function knownJdks(): Jdk[] {
  const found: Jdk[] = []
  for (const folder of knownJdkFolders) {
    let entries: string[]
    try {
      entries = readdirSync(folder)
    } catch {
      continue
    }
    for (const entry of entries.sort()) {
      const jdk = jdkAt(nodePath.join(folder, entry), folder) ?? jdkAt(nodePath.join(folder, entry, 'Contents', 'Home'), folder)
      if (jdk !== undefined && !found.some((f) => f.home === jdk.home)) found.push(jdk)
    }
  }
  return found.sort((a, b) => b.major - a.major)
}

/** The JDK a `java` on PATH belongs to (its real path's `../..`). */
function pathJdks(): Jdk[] {
  return executablesNamed('java', absolutePathEntries()).flatMap((java) => {
    try {
      const jdk = jdkAt(nodePath.dirname(nodePath.dirname(realpathSync(java))), 'PATH')
      return jdk === undefined ? [] : [jdk]
    } catch {
      return []
    }
  })
}

/**
 * The Java that runs JDT LS: `JAVA_HOME` when it is 21 or newer, else the newest JDK 21+ in the known folders, else
 * a `java` on PATH that is 21+. Only JAVA_HOME and PATH decide it (both are part of the shared daemon's key); the
 * known folders are the machine's. `why` says what was found too old, when nothing fits.
 */
export function findJdk(env: Readonly<Record<string, string | undefined>> = process.env): { jdk?: Jdk; why: string } {
  const seen: string[] = []
  const javaHome = env['JAVA_HOME']
  const candidates: Jdk[] = []
  if (javaHome !== undefined && javaHome !== '') {
    const jdk = jdkAt(javaHome, 'JAVA_HOME')
    if (jdk === undefined) seen.push(`JAVA_HOME=${javaHome} holds no bin/java with a release file`)
    else candidates.push(jdk)
  }
  candidates.push(...knownJdks(), ...pathJdks())
  for (const jdk of candidates) {
    if (jdk.major >= minimumJavaMajor) return { jdk, why: '' }
    seen.push(`${jdk.home} is Java ${jdk.major} (${jdk.from})`)
  }
  return {
    why: `JDT LS needs Java ${minimumJavaMajor} or newer, and none was found (JAVA_HOME, ${knownJdkFolders.join(', ')}, PATH)${seen.length === 0 ? '' : `: ${[...new Set(seen)].join('; ')}`}. Install a JDK ${minimumJavaMajor}+ (Debian: apt-get install openjdk-21-jdk-headless) and set JAVA_HOME to it`,
  }
}
