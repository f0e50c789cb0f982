// m2e runs a plugin while importing a project when a lifecycle mapping says so, and a plugin's own jar may carry
// that mapping (issue 48). Untrusted roots get a workspace lifecycle mappings file that maps every plugin goal their
// POMs name to <ignore/> (it outranks the plugin's jar): judged here from POM text, and measured with a plugin built
// here whose jar maps its goal to run on configuration and whose mojo writes a marker. And Maven extensions (core and
// build), refused for untrusted roots: measured with an extension jar built here that writes a marker when loaded.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, cpSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { LspError, createLsp } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { createLocalHost } from '../src/index.js'
import { readPom, untrustedLifecycleMappings } from '../src/languages/jdtls/m2e-mappings.js'
import { codeseamCacheDir } from '../src/languages/lookup.js'
import { planSpawn } from '../src/policy/trust.js'
import { positionOf } from './helpers.js'
import {
  installArtifact,
  markerExtension,
  type Artifact,
  markerPlugin,
  markerPluginUse,
  parentPom,
  waitForFile,
} from './maven-artifacts.js'
import { skipUnlessJdtls } from './support/jdtls.js'

const javaFixture = fileURLToPath(new URL('../../lsp/fixtures/conformance-java', import.meta.url))
const cleanPom = readFileSync(nodePath.join(javaFixture, 'pom.xml'), 'utf8')
const pomWith = (inside: string) => cleanPom.replace('</project>', `${inside}\n</project>`)
const roots: string[] = []

function tempRoot(files: Readonly<Record<string, string>>): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-m2e-')))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  return root
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

describe('the plugins an untrusted root names are mapped to ignore', () => {
  const plugins = `<build>
  <plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><executions><execution><goals><goal>compile</goal></goals></execution></executions></plugin>
    <plugin>
      <groupId>org.codehaus.mojo</groupId><artifactId>build-helper-maven-plugin</artifactId>
      <executions><execution><goals><goal>add-source</goal><goal>bsh-property</goal></goals></execution></executions>
      <configuration><reportPlugins><plugin><artifactId>nested</artifactId></plugin></reportPlugins></configuration>
    </plugin>
    <!-- <plugin><groupId>x</groupId><artifactId>commented</artifactId></plugin> -->
    <plugin><groupId>\${tools.group}</groupId><artifactId>gen-\${project.artifactId}</artifactId><executions><execution><goals><goal>generate</goal></goals></execution></executions></plugin>
  </plugins>
  <pluginManagement><plugins><plugin><groupId>io.example</groupId><artifactId>managed</artifactId><executions><execution><goals><goal>run</goal></goals></execution></executions></plugin></plugins></pluginManagement>
</build>
<properties><tools.group>io.tools</tools.group></properties>`

  test('a POM read as tags: plugins under any <plugins>, their goals, its properties; comments and nested configuration left out', () => {
    const reading = readPom(pomWith(plugins))
    expect(reading.plugins.map((p) => `${p.groupId}:${p.artifactId}:${p.goals.join(',')}`)).toEqual([
      'org.apache.maven.plugins:maven-compiler-plugin:compile',
      'org.codehaus.mojo:build-helper-maven-plugin:add-source,bsh-property',
      '${tools.group}:gen-${project.artifactId}:generate',
      'io.example:managed:run',
    ])
    expect(reading.properties.get('tools.group')).toBe('io.tools')
    expect(reading.properties.get('project.artifactId')).toBe('conf')
  })

  test('every named goal ignored but the compiler and build-helper’s add-source; properties resolved', () => {
    const root = tempRoot({ 'pom.xml': pomWith(plugins) })
    const mappings = untrustedLifecycleMappings(root, [nodePath.join(root, 'pom.xml')])
    expect(mappings.refused).toBeUndefined()
    expect(mappings.ignored).toEqual([
      'io.example:managed:run',
      'io.tools:gen-conf:generate',
      'org.codehaus.mojo:build-helper-maven-plugin:bsh-property',
    ])
    expect(mappings.xml).toContain(
      '<groupId>io.tools</groupId><artifactId>gen-conf</artifactId><versionRange>(,)</versionRange><goals><goal>generate</goal></goals>',
    )
    expect(mappings.xml).toMatch(/<action><ignore\/><\/action>/)
  })

  test('a plugin named by a property no root POM defines: refused, naming the POM', () => {
    const root = tempRoot({
      'pom.xml': cleanPom,
      'tools/pom.xml': pomWith(
        '<build><plugins><plugin><groupId>${elsewhere}</groupId><artifactId>p</artifactId></plugin></plugins></build>',
      ),
    })
    const mappings = untrustedLifecycleMappings(root, [nodePath.join(root, 'pom.xml'), nodePath.join(root, 'tools/pom.xml')])
    expect(mappings.refused).toMatch(/^tools\/pom\.xml names a plugin by a property codeseam cannot resolve \(\$\{elsewhere\}\)/)
  })
})

describe('a plugin whose own jar maps it to run on configuration', async () => {
  const jdtls = await skipUnlessJdtls('the JDT LS m2e mapping test')
  if (jdtls === undefined) return
  const { profile, jdk, why } = jdtls

  test(
    'never runs while an untrusted root that names it, or whose parent POM binds it, is imported (the root answers cross-file); runs for a trusted one; a parent codeseam cannot judge turns Maven import off',
    { timeout: 600_000 },
    async () => {
      expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
      if (profile === undefined || jdk === undefined) throw new Error('unreachable')
      const work = tempRoot({})
      const marker = nodePath.join(work, 'plugin-ran')
      const artifactId = `mark-plugin-${nodePath
        .basename(work)
        .replace(/[^a-z0-9]/gi, '')
        .toLowerCase()}`
      const plugin = markerPlugin(nodePath.join(work, 'build'), jdk.home, marker, artifactId)
      // Where each trust level's import resolves it from: a repository of the test's own for the trusted root (a
      // user's settings), codeseam's own repository for the untrusted one.
      const repository = nodePath.join(work, 'repository')
      const untrustedRepository = codeseamCacheDir(nodePath.join('jdtls-maven-untrusted', 'repository'))
      const installed: string[] = []
      const install = (artifact: Artifact) => {
        installArtifact(repository, artifact)
        installed.push(installArtifact(untrustedRepository, artifact))
      }
      install(plugin)
      const settings = nodePath.join(work, 'settings.xml')
      writeFileSync(settings, `<settings><localRepository>${repository}</localRepository></settings>\n`)
      const java = { configuration: { maven: { userSettings: settings } } }
      const options = { profiles: [{ id: 'jdtls', settings: { java }, initializationOptions: { settings: { java } } }] }
      const report = 'src/main/java/com/example/conf/Report.java'
      const binds = pomWith(`<build><plugins>${markerPluginUse(artifactId)}</plugins></build>`)
      // A parent POM in the repository (as one from Maven Central would be, fetched there first) that binds the goal,
      // which no root file names.
      const parent = parentPom(`${artifactId}-parent`, `<plugins>${markerPluginUse(artifactId)}</plugins>`)
      // A parent that binds it by a property only its profile defines (active by default): Maven resolves it, codeseam
      // cannot judge it.
      const hidden = parentPom(
        `${artifactId}-hidden`,
        `<plugins>${markerPluginUse(artifactId).replace('<groupId>codeseam.test</groupId>', '<groupId>${mark.group}</groupId>')}</plugins>`,
      )
      const hiddenParent = {
        ...hidden,
        pom: hidden.pom.replace(
          '</project>',
          '<profiles><profile><id>mark</id><activation><activeByDefault>true</activeByDefault></activation><properties><mark.group>codeseam.test</mark.group></properties></profile></profiles></project>',
        ),
      }
      install(parent)
      install(hiddenParent)
      const inheriting = (from: Artifact) =>
        cleanPom.replace(
          '<modelVersion>4.0.0</modelVersion>',
          `<modelVersion>4.0.0</modelVersion><parent><groupId>codeseam.test</groupId><artifactId>${from.artifactId}</artifactId><version>1.0</version><relativePath/></parent>`,
        )
      const inherits = inheriting(parent)
      const unjudged = inheriting(hiddenParent)
      const run = async (trust: 'trusted' | 'untrusted', pom: string, runs: boolean) => {
        const root = tempRoot({})
        cpSync(javaFixture, root, { recursive: true })
        writeFileSync(nodePath.join(root, 'pom.xml'), pom)
        if (trust === 'untrusted' && pom !== unjudged) {
          // The plan's mappings file names the plugin's goal (the parent's, for the root that names none).
          const plan = planSpawn(profile, { root, trust, env: {} })
          const file = (plan.settings as { java: { configuration: { maven: { lifecycleMappings: string } } } }).java.configuration.maven
            .lifecycleMappings
          expect(readFileSync(file, 'utf8')).toContain(
            `<artifactId>${artifactId}</artifactId><versionRange>(,)</versionRange><goals><goal>mark</goal></goals>`,
          )
        }
        const host = await createLocalHost(options)
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root, trust }])
          const ran = runs ? waitForFile(marker, 180_000) : undefined
          if (trust === 'untrusted' && pom === unjudged) {
            // Not imported: the file answered on its own, and the status says why.
            const symbols = await lsp.query({ operation: 'documentSymbols', root, path: report })
            expect(symbols.symbols.map((s) => s.name)).toContain('Report')
            const status = (await lsp.status()).find((s) => s.server === 'jdtls')
            expect(status?.reason).toMatch(
              new RegExp(
                `^Maven import off for this untrusted root: the parent POM codeseam\\.test:${hidden.artifactId}:1\\.0 of pom\\.xml names a plugin by a property codeseam cannot resolve`,
              ),
            )
            return
          }
          const definition = await lsp.query({
            operation: 'definition',
            root,
            path: report,
            position: positionOf(root, report, 'totalArea(shapes)'),
          })
          expect(definition.locations.map((l) => nodePath.relative(root, l.path))).toEqual(['src/main/java/com/example/conf/Geometry.java'])
          if (ran !== undefined) await ran
        } finally {
          await lsp.dispose()
          await host.dispose()
        }
      }
      try {
        await run('untrusted', binds, false)
        expect(existsSync(marker), 'the plugin ran while an untrusted root was imported').toBe(false)
        await run('untrusted', inherits, false)
        expect(existsSync(marker), 'a parent POM bound the goal: it ran while an untrusted root was imported').toBe(false)
        await run('untrusted', unjudged, false)
        expect(existsSync(marker), 'a parent codeseam cannot judge: its goal ran while an untrusted root was imported').toBe(false)
        // The same roots, trusted: m2e runs the plugin while importing each (so each untrusted run could fail).
        for (const pom of [binds, inherits, unjudged]) {
          await run('trusted', pom, true)
          expect(existsSync(marker)).toBe(true)
          rmSync(marker)
        }
      } finally {
        for (const folder of installed) rmSync(folder, { recursive: true, force: true })
      }
    },
  )
})

describe('a Maven extension, core (.mvn/extensions.xml) or build (<build><extensions>)', async () => {
  const jdtls = await skipUnlessJdtls('the JDT LS extension test')
  if (jdtls === undefined) return
  const { jdk, why } = jdtls

  test(
    'is loaded (its code runs) while a trusted root is imported; an untrusted root naming it is refused and it never runs',
    { timeout: 420_000 },
    async () => {
      expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
      if (jdk === undefined) throw new Error('unreachable')
      const work = tempRoot({})
      const marker = nodePath.join(work, 'extension-loaded')
      const artifactId = `mark-ext-${nodePath
        .basename(work)
        .replace(/[^a-z0-9]/gi, '')
        .toLowerCase()}`
      const extension = markerExtension(nodePath.join(work, 'build'), jdk.home, marker, artifactId)
      const repository = nodePath.join(work, 'repository')
      installArtifact(repository, extension)
      // In codeseam's own repository too: were the root not refused, the untrusted import would find it there.
      const cached = installArtifact(codeseamCacheDir(nodePath.join('jdtls-maven-untrusted', 'repository')), extension)
      const settings = nodePath.join(work, 'settings.xml')
      writeFileSync(settings, `<settings><localRepository>${repository}</localRepository></settings>\n`)
      const java = { configuration: { maven: { userSettings: settings } } }
      const options = { profiles: [{ id: 'jdtls', settings: { java }, initializationOptions: { settings: { java } } }] }
      const report = 'src/main/java/com/example/conf/Report.java'
      const coordinates = `<groupId>codeseam.test</groupId><artifactId>${artifactId}</artifactId><version>1.0</version>`
      const cases = [
        {
          files: { '.mvn/extensions.xml': `<extensions><extension>${coordinates}</extension></extensions>\n` },
          reason: /\.mvn\/extensions\.xml configures Maven/,
        },
        {
          files: { 'pom.xml': pomWith(`<build><extensions><extension>${coordinates}</extension></extensions></build>`) },
          reason: /pom\.xml names build <extensions>/,
        },
      ]
      const run = async (trust: 'trusted' | 'untrusted', files: Readonly<Record<string, string>>) => {
        const root = tempRoot({})
        cpSync(javaFixture, root, { recursive: true })
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
          writeFileSync(nodePath.join(root, path), text)
        }
        const host = await createLocalHost(options)
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root, trust }])
          const loaded = trust === 'trusted' ? waitForFile(marker, 180_000) : undefined
          const answer = await lsp.query({ operation: 'documentSymbols', root, path: report }).then(
            () => undefined,
            (error: unknown) => error,
          )
          if (loaded !== undefined) await loaded
          return answer
        } finally {
          await lsp.dispose()
          await host.dispose()
        }
      }
      try {
        for (const { files, reason } of cases) {
          const refused = await run('untrusted', files)
          expect(refused).toBeInstanceOf(LspError)
          expect((refused as LspError).code).toBe('UNTRUSTED')
          expect((refused as LspError).message).toMatch(reason)
          expect(existsSync(marker), 'the extension was loaded for an untrusted root').toBe(false)
          // The same extension, a root the user trusts: Maven loads it while m2e imports the project (so the
          // untrusted run could fail).
          expect(await run('trusted', files)).toBeUndefined()
          expect(existsSync(marker)).toBe(true)
          rmSync(marker)
        }
      } finally {
        rmSync(cached, { recursive: true, force: true })
      }
    },
  )
})
