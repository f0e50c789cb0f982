import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { codeseamCacheDir } from '../lookup.js'
import type { DraftPlan, HardenContext, TrustRule } from '../record.js'
import { mergeSettings } from '../settings.js'
import { statPrint } from '../tree-walk.js'
import { untrustedLifecycleMappings } from './m2e-mappings.js'
import { fetchParents, parentChains } from './parents.js'
import { buildFiles, untrustedImportRisk } from './untrusted.js'

/** JDT LS's per-workspace state (its Eclipse workspace: the imported projects, their metadata, its index), never in the repository. */
export function dataFolder(root: string, trust: 'trusted' | 'untrusted'): string {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16)
  return codeseamCacheDir(nodePath.join('jdtls-workspaces', `${nodePath.basename(root)}-${id}-${trust}`))
}

/** The Maven settings untrusted imports use, and their own local repository (codeseam's cache). */
export const untrustedMaven = () => {
  const folder = codeseamCacheDir(nodePath.join('jdtls-maven-untrusted'))
  return { settings: nodePath.join(folder, 'settings.xml'), repository: nodePath.join(folder, 'repository') }
}

/** How long fetching an untrusted root's parent POMs from Maven Central may take before a start (within its deadline). */
export const parentFetchMs = 20_000

/**
 * What m2e could run, judged from the build files and their parents: refused, or Maven import off when a parent
 * cannot be judged (its plugins unknown), or the plugins' goals mapped to ignore.
 */
function hardenJdtls(draft: DraftPlan, context: HardenContext): void {
  const judge = () => {
    const files = buildFiles(context.root)
    return { files, risk: untrustedImportRisk(context.root, files) }
  }
  const first = judge()
  const maven = untrustedMaven()
  // The parents of the root's POMs, from codeseam's repository (where `prepare` fetched them): their plugins join the file.
  const parents = parentChains(context.root, first.files.poms, maven.repository)
  // The plugins the POMs name, mapped to <ignore/> in a workspace lifecycle mappings file of codeseam's cache.
  const mappings = untrustedLifecycleMappings(context.root, first.files.poms, parents.chains)
  const risk = first.risk ?? mappings.refused
  if (risk !== undefined)
    throw context.refuse(
      `${risk}; JDT LS would load it while importing the project`,
      'remove it, or mark the root trusted (a trusted root gets the full Maven and Gradle import)',
    )
  const missing = parents.missing[0]
  const fetched = (context.prepared ?? []).join('; ')
  const unknown =
    parents.unreadable ??
    (missing === undefined
      ? mappings.unknown
      : `the parent POM ${missing} could not be read (${fetched === '' ? 'not in codeseam\u2019s Maven repository' : fetched})`)
  const mappingsFile = `${dataFolder(context.root, 'untrusted')}-lifecycle-mappings.xml`
  if (!existsSync(mappingsFile) || readFileSync(mappingsFile, 'utf8') !== mappings.xml) {
    mkdirSync(nodePath.dirname(mappingsFile), { recursive: true })
    writeFileSync(mappingsFile, mappings.xml)
  }
  const judged = (files: typeof first.files) => [...files.poms, ...files.gradle, ...files.mavenConfig]
  const names = judged(first.files).join('|')
  const read = statPrint(judged(first.files))
  // A stat of every folder walked and every build file at each question; the tree is walked again only when one
  // changed (a build file written, or an entry added, removed or renamed in a folder). A build file added,
  // removed or changed: judged again, and the server started again on it (or refused).
  let watched = [...first.files.folders, ...judged(first.files)]
  let seen = statPrint(watched)
  draft.stale = () => {
    if (statPrint(watched) === seen) return false
    const again = buildFiles(context.root)
    if (again.truncated || judged(again).join('|') !== names) return true
    const next = [...again.folders, ...judged(again)]
    const print = statPrint(next)
    // One stat per path: the build files' part of it (the last ones) against what was judged.
    if (print.split('|').slice(again.folders.length).join('|') !== read) return true
    watched = next
    seen = print
    return false
  }
  const untrusted = {
    java: {
      // A parent codeseam cannot judge could bind any plugin: no Maven import at all (each file answered on its own).
      import: { gradle: { enabled: false }, ...(unknown === undefined ? {} : { maven: { enabled: false } }) },
      // An execution no mapping covers is ignored (a user profile could say `execute`).
      configuration: {
        maven: {
          userSettings: maven.settings,
          globalSettings: maven.settings,
          lifecycleMappings: mappingsFile,
          defaultMojoExecutionAction: 'ignore',
        },
      },
      // The builder runs annotation processors a dependency carries (measured: jdtls-untrusted.test.ts): off
      // whatever a user profile says.
      autobuild: { enabled: false },
    },
  }
  draft.settings = mergeSettings(draft.settings, untrusted)
  draft.initializationOptions = {
    settings: mergeSettings((draft.initializationOptions as { settings?: unknown })?.settings, untrusted),
  }
  // Its own Eclipse workspace when not imported: none of the Maven projects an earlier import left there is opened.
  draft.args.push('-data', `${dataFolder(context.root, 'untrusted')}${unknown === undefined ? '' : '-unimported'}`)
  draft.hardening.push(
    'Gradle import off',
    'the builder off (it runs the annotation processors dependencies carry)',
    "Maven reads codeseam's settings and local repository (none of the user's credentials or mirrors), every repository mirrored to Maven Central",
    'a root whose build files name extensions, lifecycle mappings, annotation processors or file: repositories is refused',
    unknown === undefined
      ? `m2e runs none of the plugins the POMs and their parents name while importing (a workspace lifecycle mappings file ignores ${mappings.ignored.length} goals; the compiler plugin and build-helper's add-source are left to their mappings)`
      : 'Maven import off (a parent POM cannot be judged)',
  )
  if (unknown !== undefined)
    draft.degraded = `Maven import off for this untrusted root: ${unknown}, so the plugins it could make m2e run are unknown; each file is answered on its own (no cross-file answers, no dependencies) until it can be read`
}

/** The trust rule of JDT LS (the record's `trust`). */
export const jdtlsTrust: Omit<TrustRule, 'why'> = {
  strip: [
    'JAVA_TOOL_OPTIONS',
    'JDK_JAVA_OPTIONS',
    '_JAVA_OPTIONS',
    'MAVEN_OPTS',
    'MAVEN_ARGS',
    'M2_HOME',
    'MAVEN_HOME',
    'GRADLE_OPTS',
    'GRADLE_USER_HOME',
  ],
  harden: hardenJdtls,
  // The parent POMs the root's POMs name and codeseam's repository lacks, fetched from Maven Central (where the
  // untrusted import would fetch them from) before the server starts.
  prepare: ({ root, deadline, signal }) =>
    fetchParents(root, buildFiles(root).poms, untrustedMaven().repository, {
      deadline: Math.min(deadline, Date.now() + parentFetchMs),
      ...(signal === undefined ? {} : { signal }),
    }),
}
