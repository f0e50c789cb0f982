import { readFileSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { configWalkLimit, isSkippedFolder, walkTree } from '../tree-walk.js'

/*
 * What an import of an untrusted root could run (issue 48). JDT LS imports a Maven project with m2e (Maven 3.9
 * embedded in the server's own JVM) and a Gradle project with Buildship (the Gradle tooling API, which runs the
 * build scripts). Reading a POM runs nothing by itself, but some of what a POM or `.mvn/` names is loaded as code
 * into the import: build extensions (`<extensions>`, a plugin's `<extensions>true</extensions>`), core extensions
 * (`.mvn/extensions.xml`), m2e lifecycle mappings that execute a plugin on configuration
 * (`lifecycleMappingMetadata`, `<?m2e execute?>` instructions), annotation processors the compiler configuration
 * names, and repositories on the local disk (`file:`), from which any of those could come. An untrusted root whose
 * build files name any of them is refused; Gradle builds are never imported untrusted. The mappings a plugin's own
 * jar carries are outranked by a workspace file (m2e-mappings.ts).
 */

/** What a POM may name that m2e loads as code while importing, each with the words people know it by. */
const pomCode: ReadonlyArray<readonly [RegExp, string]> = [
  [/<extensions>\s*true\s*<\/extensions>/, 'a plugin with <extensions>true</extensions> (loaded into the import)'],
  [/<extensions>\s*<extension>/, 'build <extensions> (loaded into the import)'],
  [/lifecycleMappingMetadata|lifecycle-mapping/, 'an m2e lifecycle mapping (it can execute a plugin on import)'],
  [/<\?m2e\s/, 'an m2e processing instruction (`<?m2e execute?>` executes a plugin on import)'],
  [/<annotationProcessorPaths>|<annotationProcessors>|<processor>/, 'annotation processors (code run by the compiler)'],
  [/<url>\s*file:/, 'a repository on the local disk (file: URL)'],
]

/**
 * What a POM's text names that m2e would load as code (comments left out), in words; undefined when nothing. A parent
 * POM's (`parent`) is judged closer, as common parents name such things harmlessly: its lifecycle mappings and `<?m2e?>`
 * instructions only when one says `execute` (Apache's parent maps a goal to `<ignore/>`), and a plugin's
 * `<extensions>true</extensions>` not here but where the build uses that plugin (parents.ts: Spring Boot's parent
 * marks native-maven-plugin so in `<pluginManagement>`, loaded only for a build that names it).
 */
export function pomRisk(text: string, parent = false): string | undefined {
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, '')
  const executes = /<execute\b|<\?m2e\s+execute/.test(withoutComments)
  return pomCode.find(([pattern, what]) => {
    if (parent && what.startsWith('a plugin with <extensions>')) return false
    if (parent && what.startsWith('an m2e') && !executes) return false
    return pattern.test(withoutComments)
  })?.[1]
}

/** The `.mvn/` files Maven reads as configuration that can load code or change where artifacts come from. */
const mavenConfigFiles = ['extensions.xml', 'maven.config', 'jvm.config']

/** The Gradle build files Buildship would run. */
const gradleFiles = new Set(['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'])

export interface BuildFiles {
  readonly poms: ReadonlyArray<string>
  readonly gradle: ReadonlyArray<string>
  readonly mavenConfig: ReadonlyArray<string>
  /** The walk stopped at its folder limit (the root is then refused: nothing unseen is assumed safe). */
  readonly truncated: boolean
  /**
   * Every folder walked, the root first: a build file added, removed or renamed (or a `.mvn` folder made) changes
   * the modification time of the folder it is in, so a stat of these and of the build files tells when to walk again.
   */
  readonly folders: ReadonlyArray<string>
}

/** The root's build files (the untrusted rules' bounded walk: version control, dependencies and build output left out). */
export function buildFiles(root: string): BuildFiles {
  const poms: string[] = []
  const gradle: string[] = []
  const mavenConfig: string[] = []
  const folders: string[] = [root]
  const complete = walkTree(root, (entry, path) => {
    if (entry.isDirectory() && !isSkippedFolder(entry.name)) folders.push(path)
    if (!entry.isFile()) return
    if (entry.name === 'pom.xml') poms.push(path)
    else if (gradleFiles.has(entry.name)) gradle.push(path)
    else if (nodePath.basename(nodePath.dirname(path)) === '.mvn' && mavenConfigFiles.includes(entry.name)) mavenConfig.push(path)
  })
  return { poms: poms.sort(), gradle: gradle.sort(), mavenConfig: mavenConfig.sort(), truncated: !complete, folders }
}

/** Why importing this root untrusted could run its code, or undefined when its build files name nothing that runs. */
export function untrustedImportRisk(root: string, files: BuildFiles = buildFiles(root)): string | undefined {
  const relative = (path: string) => nodePath.relative(root, path)
  if (files.gradle.length > 0)
    return `it is a Gradle build (${relative(files.gradle[0] ?? '')}): importing it runs the project's build scripts`
  const config = files.mavenConfig[0]
  if (config !== undefined) return `${relative(config)} configures Maven (core extensions, flags or JVM options that can load code)`
  for (const pom of files.poms) {
    let text: string
    try {
      if (statSync(pom).size > 4 * 1024 ** 2) return `${relative(pom)} is over 4 MiB, too large to judge`
      text = readFileSync(pom, 'utf8')
    } catch {
      continue
    }
    const risk = pomRisk(text)
    if (risk !== undefined) return `${relative(pom)} names ${risk}`
  }
  if (files.truncated) return `the root has more than ${configWalkLimit} folders, too many to check every build file`
  return undefined
}

/**
 * A Maven settings file for untrusted imports: the local repository in codeseam's cache, no user credentials or mirrors,
 * and every repository mirrored to Maven Central.
 */
export function untrustedMavenSettings(localRepository: string): string {
  const escaped = localRepository.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by codeseam for importing untrusted Maven projects: artifacts go to a local repository of codeseam's own,
     and none of the user's settings (credentials, mirrors, profiles) is sent to repositories a project names. -->
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0">
  <localRepository>${escaped}</localRepository>
  <interactiveMode>false</interactiveMode>
  <mirrors>
    <!-- Every repository a project names is Maven Central: no artifact (a plugin, an extension) from a server the
         project chose. -->
    <mirror>
      <id>codeseam-central-only</id>
      <mirrorOf>*</mirrorOf>
      <url>https://repo.maven.apache.org/maven2</url>
    </mirror>
  </mirrors>
</settings>
`
}
