// Jars the JDT LS marker tests build and put into a Maven repository: an annotation processor, a Maven plugin whose
// jar carries an m2e mapping that runs it on configuration, a Maven core extension. Each writes a marker file (its
// path compiled in) when it runs; nothing is downloaded.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, watch, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { jdtlsProduct } from '../src/languages/jdtls/record.js'

/** A jar and its POM, for {@link installArtifact}. */
export interface Artifact {
  readonly groupId: string
  readonly artifactId: string
  readonly version: string
  /** None for a POM-only artifact (a parent). */
  readonly jar?: string
  readonly pom: string
}

/** Compiles `sources` (path → text) against `classpath` and jars them with `resources` (path → text). */
function buildJar(
  dir: string,
  javaHome: string,
  files: { sources: Readonly<Record<string, string>>; resources: Readonly<Record<string, string>> },
  classpath: ReadonlyArray<string> = [],
): string {
  const classes = nodePath.join(dir, 'classes')
  const paths = Object.entries(files.sources).map(([path, text]) => {
    const source = nodePath.join(dir, 'src', path)
    mkdirSync(nodePath.dirname(source), { recursive: true })
    writeFileSync(source, text)
    return source
  })
  for (const [path, text] of Object.entries(files.resources)) {
    mkdirSync(nodePath.dirname(nodePath.join(classes, path)), { recursive: true })
    writeFileSync(nodePath.join(classes, path), text)
  }
  const cp = classpath.length > 0 ? ['-cp', classpath.join(nodePath.delimiter)] : []
  execFileSync(nodePath.join(javaHome, 'bin', 'javac'), ['--release', '17', ...cp, '-d', classes, ...paths])
  const jar = nodePath.join(dir, 'artifact.jar')
  execFileSync(nodePath.join(javaHome, 'bin', 'jar'), ['cf', jar, '-C', classes, '.'])
  return jar
}

const pomOf = (groupId: string, artifactId: string, version: string, packaging = 'jar') =>
  `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version><packaging>${packaging}</packaging></project>\n`

/** Java that writes "ran" to `marker` (a statement). */
const writeMarker = (marker: string) =>
  `try { java.nio.file.Files.writeString(java.nio.file.Path.of(${JSON.stringify(marker)}), "ran"); } catch (Exception e) {}`

/**
 * Puts an artifact into a Maven repository folder (no `_remote.repositories`: Maven 3.9's local repository takes
 * it as installed locally, found whatever repository a project names); returns its artifact folder (to remove).
 */
export function installArtifact(repository: string, artifact: Artifact): string {
  const folder = nodePath.join(repository, ...artifact.groupId.split('.'), artifact.artifactId, artifact.version)
  mkdirSync(folder, { recursive: true })
  if (artifact.jar !== undefined) cpSync(artifact.jar, nodePath.join(folder, `${artifact.artifactId}-${artifact.version}.jar`))
  writeFileSync(nodePath.join(folder, `${artifact.artifactId}-${artifact.version}.pom`), artifact.pom)
  return nodePath.dirname(folder)
}

/**
 * A dependency that carries an annotation processor (as many on Maven Central do): the JDT builder discovers and
 * runs it.
 */
export function markerProcessor(dir: string, javaHome: string, marker: string, artifactId: string): Artifact {
  const jar = buildJar(dir, javaHome, {
    sources: {
      'mark/Marker.java': `package mark;
import java.util.Set;
import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
@SupportedAnnotationTypes("*")
public class Marker extends AbstractProcessor {
  @Override public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    ${writeMarker(marker)}
  }
  @Override public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }
  @Override public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) { return false; }
}
`,
    },
    resources: { 'META-INF/services/javax.annotation.processing.Processor': 'mark.Marker\n' },
  })
  return { groupId: 'codeseam.test', artifactId, version: '1.0', jar, pom: pomOf('codeseam.test', artifactId, '1.0') }
}

/** A jar of the Maven runtime inside the JDT LS product (m2e's embedded Maven 3.9), by name prefix. */
export function mavenRuntimeJar(prefix: string): string {
  const plugins = nodePath.join(jdtlsProduct(), 'plugins')
  const runtime = readdirSync(plugins).find((name) => name.startsWith('org.eclipse.m2e.maven.runtime_'))
  if (runtime === undefined) throw new Error(`no m2e Maven runtime in ${plugins}`)
  const jars = nodePath.join(plugins, runtime, 'jars')
  const jar = readdirSync(jars).find((name) => name.startsWith(prefix))
  if (jar === undefined) throw new Error(`no ${prefix}*.jar in ${jars}`)
  return nodePath.join(jars, jar)
}

/**
 * A Maven plugin with one goal, `mark`, whose jar carries an m2e mapping that executes it on configuration (as
 * build-helper-maven-plugin's does): m2e runs it while importing a POM that binds the goal. Compiled against the
 * plugin API of the product's own Maven; its descriptor is written by hand.
 */
export function markerPlugin(dir: string, javaHome: string, marker: string, artifactId: string): Artifact {
  const groupId = 'codeseam.test'
  const descriptor = `<?xml version="1.0" encoding="UTF-8"?>
<plugin>
  <name>${artifactId}</name>
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>1.0</version>
  <goalPrefix>mark</goalPrefix>
  <isolatedRealm>false</isolatedRealm>
  <inheritedByDefault>true</inheritedByDefault>
  <mojos>
    <mojo>
      <goal>mark</goal>
      <requiresDirectInvocation>false</requiresDirectInvocation>
      <requiresProject>true</requiresProject>
      <requiresReports>false</requiresReports>
      <aggregator>false</aggregator>
      <requiresOnline>false</requiresOnline>
      <inheritedByDefault>true</inheritedByDefault>
      <phase>generate-sources</phase>
      <implementation>mark.MarkMojo</implementation>
      <language>java</language>
      <instantiationStrategy>per-lookup</instantiationStrategy>
      <executionStrategy>once-per-session</executionStrategy>
      <threadSafe>true</threadSafe>
      <parameters/>
    </mojo>
  </mojos>
  <dependencies/>
</plugin>
`
  const mapping = `<?xml version="1.0" encoding="UTF-8"?>
<lifecycleMappingMetadata>
  <pluginExecutions>
    <pluginExecution>
      <pluginExecutionFilter><goals><goal>mark</goal></goals></pluginExecutionFilter>
      <action><execute><runOnConfiguration>true</runOnConfiguration><runOnIncremental>false</runOnIncremental></execute></action>
    </pluginExecution>
  </pluginExecutions>
</lifecycleMappingMetadata>
`
  const jar = buildJar(
    dir,
    javaHome,
    {
      sources: {
        'mark/MarkMojo.java': `package mark;
public class MarkMojo extends org.apache.maven.plugin.AbstractMojo {
  @Override public void execute() {
    ${writeMarker(marker)}
  }
}
`,
      },
      resources: { 'META-INF/maven/plugin.xml': descriptor, 'META-INF/m2e/lifecycle-mapping-metadata.xml': mapping },
    },
    [mavenRuntimeJar('maven-plugin-api-')],
  )
  return { groupId, artifactId, version: '1.0', jar, pom: pomOf(groupId, artifactId, '1.0', 'maven-plugin') }
}

/** A jar of the JDT LS product's plugins folder, by name prefix. */
function productJar(prefix: string): string {
  const plugins = nodePath.join(jdtlsProduct(), 'plugins')
  const jar = readdirSync(plugins).find((name) => name.startsWith(prefix) && name.endsWith('.jar'))
  if (jar === undefined) throw new Error(`no ${prefix}*.jar in ${plugins}`)
  return nodePath.join(plugins, jar)
}

/**
 * A Maven extension (core, in `.mvn/extensions.xml`, or build, in `<build><extensions>`): one Sisu component,
 * an eager singleton, whose constructor writes the marker; Maven creates it when it loads the jar into its
 * container. Compiled against the product's own javax.inject and Sisu.
 */
export function markerExtension(dir: string, javaHome: string, marker: string, artifactId: string): Artifact {
  const jar = buildJar(
    dir,
    javaHome,
    {
      sources: {
        'markext/MarkExtension.java': `package markext;
@javax.inject.Named @javax.inject.Singleton @org.eclipse.sisu.EagerSingleton
public class MarkExtension {
  public MarkExtension() {
    ${writeMarker(marker)}
  }
}
`,
      },
      resources: { 'META-INF/sisu/javax.inject.Named': 'markext.MarkExtension\n' },
    },
    [productJar('jakarta.inject.jakarta.inject-api_'), mavenRuntimeJar('org.eclipse.sisu.inject-')],
  )
  return { groupId: 'codeseam.test', artifactId, version: '1.0', jar, pom: pomOf('codeseam.test', artifactId, '1.0') }
}

/** A parent POM (packaging `pom`) whose `<build>` holds `build`. */
export function parentPom(artifactId: string, build: string): Artifact {
  const pom = pomOf('codeseam.test', artifactId, '1.0', 'pom').replace('</project>', `<build>${build}</build></project>`)
  return { groupId: 'codeseam.test', artifactId, version: '1.0', pom }
}

/** The `<plugin>` element that binds {@link markerPlugin}'s goal in a POM's `<build><plugins>`. */
export const markerPluginUse = (artifactId: string): string =>
  `<plugin><groupId>codeseam.test</groupId><artifactId>${artifactId}</artifactId><version>1.0</version><executions><execution><id>mark</id><goals><goal>mark</goal></goals></execution></executions></plugin>`

/** Resolves when `path` exists (watching its folder), rejects after `timeoutMs`. */
export function waitForFile(path: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(nodePath.dirname(path), () => {
      if (existsSync(path)) done()
    })
    const timer = setTimeout(() => {
      watcher.close()
      reject(new Error(`${path} did not appear within ${timeoutMs} ms`))
    }, timeoutMs)
    const done = () => {
      clearTimeout(timer)
      watcher.close()
      resolve()
    }
    if (existsSync(path)) done()
  })
}
