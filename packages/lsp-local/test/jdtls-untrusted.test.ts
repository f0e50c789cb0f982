// JDT LS on untrusted roots (issue 48): what an import could load as code is judged from the build files (unit
// cases below, each able to fail both ways), a root that names any of it is refused before a server starts, and a
// clean Maven root is served with nothing written into it but m2e's empty output folders.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { LspError, createLsp, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { untrustedImportRisk, untrustedMavenSettings } from '../src/languages/jdtls/untrusted.js'
import { codeseamCacheDir } from '../src/languages/lookup.js'
import { planSpawn } from '../src/policy/trust.js'
import { LeakCheck, positionOf } from './helpers.js'
import { installArtifact, markerProcessor, waitForFile } from './maven-artifacts.js'
import { skipUnlessJdtls } from './support/jdtls.js'

const javaFixture = fileURLToPath(new URL('../../lsp/fixtures/conformance-java', import.meta.url))
const cleanPom = readFileSync(nodePath.join(javaFixture, 'pom.xml'), 'utf8')
const roots: string[] = []

function tempRoot(files: Readonly<Record<string, string>>): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-jdtls-')))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  return root
}

/** The clean POM with `inside` added before its end. */
const pomWith = (inside: string) => cleanPom.replace('</project>', `${inside}\n</project>`)

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

describe('what an untrusted import could load is judged from the build files', () => {
  const cases: ReadonlyArray<readonly [string, Readonly<Record<string, string>>, RegExp]> = [
    ['a Gradle build', { 'build.gradle': "plugins { id 'java' }\n" }, /^it is a Gradle build \(build\.gradle\)/],
    [
      'a Gradle settings file in a subfolder',
      { 'pom.xml': cleanPom, 'tools/settings.gradle.kts': '' },
      /Gradle build \(tools\/settings\.gradle\.kts\)/,
    ],
    ['core extensions', { 'pom.xml': cleanPom, '.mvn/extensions.xml': '<extensions/>' }, /^\.mvn\/extensions\.xml configures Maven/],
    ['Maven flags', { 'pom.xml': cleanPom, '.mvn/maven.config': '-Dx=y' }, /^\.mvn\/maven\.config configures Maven/],
    ['JVM options for Maven', { 'pom.xml': cleanPom, '.mvn/jvm.config': '-javaagent:x.jar' }, /^\.mvn\/jvm\.config configures Maven/],
    [
      'build extensions',
      {
        'pom.xml': pomWith('<build><extensions><extension><groupId>g</groupId><artifactId>a</artifactId></extension></extensions></build>'),
      },
      /^pom\.xml names build <extensions>/,
    ],
    [
      'a plugin with extensions',
      { 'pom.xml': pomWith('<build><plugins><plugin><artifactId>p</artifactId><extensions>true</extensions></plugin></plugins></build>') },
      /^pom\.xml names a plugin with <extensions>true<\/extensions>/,
    ],
    [
      'an m2e lifecycle mapping in a module',
      {
        'pom.xml': cleanPom,
        'core/pom.xml': pomWith(
          '<!-- m2e --><build><pluginManagement><plugins><plugin><artifactId>lifecycle-mapping</artifactId></plugin></plugins></pluginManagement></build>',
        ),
      },
      /^core\/pom\.xml names an m2e lifecycle mapping/,
    ],
    [
      'an m2e processing instruction',
      {
        'pom.xml': pomWith('<build><plugins><plugin><?m2e execute onConfiguration?><artifactId>p</artifactId></plugin></plugins></build>'),
      },
      /^pom\.xml names an m2e processing instruction/,
    ],
    [
      'annotation processors',
      {
        'pom.xml': pomWith(
          '<build><plugins><plugin><configuration><annotationProcessorPaths><path/></annotationProcessorPaths></configuration></plugin></plugins></build>',
        ),
      },
      /^pom\.xml names annotation processors/,
    ],
    [
      'a repository on the local disk',
      {
        'pom.xml': pomWith('<repositories><repository><id>here</id><url>file:///${project.basedir}/repo</url></repository></repositories>'),
      },
      /^pom\.xml names a repository on the local disk/,
    ],
  ]
  for (const [name, files, reason] of cases) {
    test(`${name}: refused`, () => {
      expect(untrustedImportRisk(tempRoot(files))).toMatch(reason)
    })
  }

  test('a clean Maven module, and words only in comments: nothing to refuse', () => {
    expect(untrustedImportRisk(tempRoot({ 'pom.xml': cleanPom }))).toBeUndefined()
    expect(
      untrustedImportRisk(tempRoot({ 'pom.xml': pomWith('<!-- <extensions>true</extensions> lifecycle-mapping -->') })),
    ).toBeUndefined()
  })

  test('build files in skipped folders (dependencies, build output) are not judged', () => {
    expect(
      untrustedImportRisk(
        tempRoot({
          'pom.xml': cleanPom,
          'node_modules/x/build.gradle': '',
          'target/pom.xml': pomWith('<extensions><extension/></extensions>'),
        }),
      ),
    ).toBeUndefined()
  })
})

test('the untrusted plan: Gradle off, codeseam’s own Maven settings, its own data folder; trusted keeps the import', async () => {
  const profile = (await builtinProfiles()).find((p) => p.id === 'jdtls')
  if (profile === undefined) throw new Error('no jdtls profile')
  const root = tempRoot({ 'pom.xml': cleanPom })
  const untrusted = planSpawn(profile, { root, trust: 'untrusted', env: {} })
  const java = (untrusted.settings as { java: Record<string, Record<string, unknown>> }).java
  expect(java['import']).toMatchObject({ gradle: { enabled: false }, maven: { enabled: true } })
  const userSettings = (java['configuration'] as { maven: { userSettings: string } }).maven.userSettings
  expect(userSettings).toMatch(/codeseam\/jdtls-maven-untrusted\/settings\.xml$/)
  expect(untrusted.args.slice(-2)[0]).toBe('-data')
  expect(untrusted.args.at(-1)).toMatch(/jdtls-workspaces\/.*-untrusted$/)
  expect(untrusted.hardening).toContain('Gradle import off')
  // The settings it names: codeseam's own repository, and every repository a project names mirrored to Central.
  const written = untrustedMavenSettings('/cache/repository')
  expect(written).toMatch(/<localRepository>\/cache\/repository<\/localRepository>/)
  expect(written).toMatch(/<mirrorOf>\*<\/mirrorOf>\s*<url>https:\/\/repo\.maven\.apache\.org\/maven2<\/url>/)
  const trusted = planSpawn(profile, { root, trust: 'trusted', env: {} })
  expect((trusted.settings as { java: { import: unknown } }).java.import).toMatchObject({ gradle: { enabled: true } })
  expect(trusted.args).not.toContain('-data')
  // The refused root never gets a plan.
  const gradle = tempRoot({ 'build.gradle': '' })
  expect(() => planSpawn(profile, { root: gradle, trust: 'untrusted', env: {} })).toThrow(/Gradle build/)
})

test('a running untrusted plan is stale when a build file is added, removed or changed, not when a source is', async () => {
  const profile = (await builtinProfiles()).find((p) => p.id === 'jdtls')
  if (profile === undefined) throw new Error('no jdtls profile')
  const root = tempRoot({ 'pom.xml': cleanPom, 'core/src/A.java': 'class A {}\n' })
  const plan = () => {
    const { stale } = planSpawn(profile, { root, trust: 'untrusted', env: {} })
    if (stale === undefined) throw new Error('no stale check')
    return stale
  }
  let stale = plan()
  expect(stale()).toBe(false)
  // A source added (its folder's time changes): walked again, nothing to judge again.
  writeFileSync(nodePath.join(root, 'core/src/B.java'), 'class B {}\n')
  mkdirSync(nodePath.join(root, 'core/src/deep'))
  expect(stale()).toBe(false)
  expect(stale()).toBe(false)
  // A module's POM added, in a folder made after the plan: seen through the new folder.
  writeFileSync(nodePath.join(root, 'core/src/deep/pom.xml'), cleanPom)
  expect(stale()).toBe(true)
  stale = plan()
  // `.mvn/extensions.xml`: a new folder in the root, then a file in it.
  mkdirSync(nodePath.join(root, '.mvn'))
  expect(stale()).toBe(false)
  writeFileSync(nodePath.join(root, '.mvn/extensions.xml'), '<extensions/>')
  expect(stale()).toBe(true)
  rmSync(nodePath.join(root, '.mvn'), { recursive: true })
  stale = plan()
  // The root's POM written in place, and a module's POM removed.
  writeFileSync(nodePath.join(root, 'pom.xml'), pomWith('<!-- changed -->'))
  expect(stale()).toBe(true)
  stale = plan()
  rmSync(nodePath.join(root, 'core/src/deep/pom.xml'))
  expect(stale()).toBe(true)
})

describe('JDT LS on untrusted roots, through the host', async () => {
  const profile = (await builtinProfiles()).find((p) => p.id === 'jdtls')
  const why = profile?.unavailable
  if (why !== undefined && process.env['CI'] !== 'true') {
    console.log(`SKIPPED the JDT LS host tests: ${why}`)
    test.skip(`jdtls: ${why}`, () => {})
    return
  }
  const leaks = new LeakCheck()
  let host: LocalHost
  let lsp: LspService
  let root: string
  let before: string[]

  /** Every path under a root (relative, sorted). */
  const tree = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((p) => p.split(nodePath.sep).join('/'))
      .sort()

  beforeAll(async () => {
    expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
    root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-jdtls-host-')))
    roots.push(root)
    cpSync(javaFixture, root, { recursive: true })
    before = tree(root)
    host = await createLocalHost()
    lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'untrusted' }])
  })
  afterAll(async () => {
    await leaks.record()
    await lsp?.dispose()
    await host?.dispose()
    expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
  })

  const report = 'src/main/java/com/example/conf/Report.java'

  test('a clean Maven root answers cross-file, and nothing but empty output folders is written into it', { timeout: 240_000 }, async () => {
    const definition = await lsp.query({
      operation: 'definition',
      root,
      path: report,
      position: positionOf(root, report, 'totalArea(shapes)'),
    })
    expect(definition.locations.map((l) => nodePath.relative(root, l.path))).toEqual(['src/main/java/com/example/conf/Geometry.java'])
    await leaks.record()
    const added = tree(root).filter((path) => !before.includes(path))
    // m2e creates the Maven output folders (empty: the builder is off); .project, .classpath and .settings stay out.
    expect(added.filter((path) => !/^target(\/classes|\/test-classes)?$/.test(path))).toEqual([])
    expect(existsSync(nodePath.join(root, '.project'))).toBe(false)
  })

  test(
    'a build extension added to the POM while the server runs: the next question is refused, naming it',
    { timeout: 120_000 },
    async () => {
      writeFileSync(
        nodePath.join(root, 'pom.xml'),
        pomWith(
          '<build><extensions><extension><groupId>g</groupId><artifactId>a</artifactId><version>1</version></extension></extensions></build>',
        ),
      )
      const refused = await lsp.query({ operation: 'documentSymbols', root, path: report }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(LspError)
      expect((refused as LspError).code).toBe('UNTRUSTED')
      expect((refused as LspError).message).toMatch(/pom\.xml names build <extensions>/)
    },
  )
})

describe('an annotation processor a dependency carries', async () => {
  const jdtls = await skipUnlessJdtls('the JDT LS annotation processor test')
  if (jdtls === undefined) return
  const { jdk, why } = jdtls

  test(
    'never runs for an untrusted root, even when a user profile turns the builder on; runs for a trusted one so configured',
    { timeout: 300_000 },
    async () => {
      expect(why, 'under CI=true a built-in server that is not installed fails').toBeUndefined()
      const work = tempRoot({})
      const marker = nodePath.join(work, 'processor-ran')
      const artifactId = `marker-${nodePath
        .basename(work)
        .replace(/[^a-z0-9]/gi, '')
        .toLowerCase()}`
      const artifact = markerProcessor(nodePath.join(work, 'build'), jdk?.home ?? '', marker, artifactId)
      // Where each trust level's import resolves it from: a repository of the test's own for the trusted root (a
      // user's settings), codeseam's own repository for the untrusted one.
      const repository = nodePath.join(work, 'repository')
      installArtifact(repository, artifact)
      const cached = installArtifact(codeseamCacheDir(nodePath.join('jdtls-maven-untrusted', 'repository')), artifact)
      const settings = nodePath.join(work, 'settings.xml')
      writeFileSync(settings, `<settings><localRepository>${repository}</localRepository></settings>\n`)
      const java = { autobuild: { enabled: true }, configuration: { maven: { userSettings: settings } } }
      const options = {
        profiles: [
          {
            id: 'jdtls',
            settings: { java },
            initializationOptions: { settings: { java: { ...java, import: { generatesMetadataFilesAtProjectRoot: false } } } },
          },
        ],
      }
      const dependency = `<dependencies><dependency><groupId>codeseam.test</groupId><artifactId>${artifactId}</artifactId><version>1.0</version></dependency></dependencies>`
      const report = 'src/main/java/com/example/conf/Report.java'
      const run = async (trust: 'trusted' | 'untrusted') => {
        const root = tempRoot({})
        cpSync(javaFixture, root, { recursive: true })
        writeFileSync(nodePath.join(root, 'pom.xml'), pomWith(dependency))
        const host = await createLocalHost(options)
        const lsp = createLsp()
        try {
          await host.attach(lsp, [{ root, trust }])
          const ran = trust === 'trusted' ? waitForFile(marker, 120_000) : undefined
          await lsp.query({ operation: 'diagnostics', root, path: report })
          writeFileSync(
            nodePath.join(root, report),
            readFileSync(nodePath.join(root, report), 'utf8').replace('static String render', '@Deprecated static String render'),
          )
          await lsp.query({ operation: 'diagnostics', root, path: report })
          await lsp.query({ operation: 'workspaceSymbols', root, query: 'Circle' })
          if (ran !== undefined) await ran
        } finally {
          await lsp.dispose()
          await host.dispose()
        }
      }
      try {
        await run('untrusted')
        expect(existsSync(marker), 'the processor ran for an untrusted root').toBe(false)
        // The same dependency, a root the user trusts with the builder on: it runs (so the untrusted run could fail).
        await run('trusted')
        expect(existsSync(marker)).toBe(true)
      } finally {
        rmSync(cached, { recursive: true, force: true })
      }
    },
  )
})
