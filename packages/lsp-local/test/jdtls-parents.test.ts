// The parent POMs of an untrusted Maven root (issue 48): read from the root, the files its POMs point at and a local
// repository, their plugins' goals added to the ignore mappings, fetched from a repository over HTTP when missing (a
// server of the test's own: no network), and a parent that cannot be judged turning Maven import off.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, describe, expect, test } from 'vitest'

import { builtinProfiles } from '../src/index.js'
import { untrustedLifecycleMappings } from '../src/languages/jdtls/m2e-mappings.js'
import { fetchParents, parentChains, pomPath } from '../src/languages/jdtls/parents.js'
import { planSpawn } from '../src/policy/trust.js'

const javaFixture = fileURLToPath(new URL('../../lsp/fixtures/conformance-java', import.meta.url))
const cleanPom = readFileSync(nodePath.join(javaFixture, 'pom.xml'), 'utf8')
const folders: string[] = []

function tempFolder(files: Readonly<Record<string, string>> = {}): string {
  const folder = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-parents-')))
  folders.push(folder)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(folder, path)), { recursive: true })
    writeFileSync(nodePath.join(folder, path), text)
  }
  return folder
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** A POM of `g:a:1.0` with `inside` in its `<project>` (a `<parent>`, `<build>`, `<profiles>`). */
const pom = (g: string, a: string, inside = '') =>
  `<project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId><artifactId>${a}</artifactId><version>1.0</version><packaging>pom</packaging>${inside}</project>\n`
const parentOf = (a: string, relativePath = '<relativePath/>') =>
  `<parent><groupId>p.test</groupId><artifactId>${a}</artifactId><version>1.0</version>${relativePath}</parent>`
const plugin = (g: string, a: string, goal: string) =>
  `<plugin><groupId>${g}</groupId><artifactId>${a}</artifactId><executions><execution><goals><goal>${goal}</goal></goals></execution></executions></plugin>`
/** The clean fixture POM with a parent. */
const child = (parent: string) => cleanPom.replace('<modelVersion>4.0.0</modelVersion>', `<modelVersion>4.0.0</modelVersion>${parent}`)
const inRepository = (g: string, a: string) => pomPath(g, a, '1.0')
/** A lifecycle-mapping plugin's configuration with one action. */
const mapping = (action: string) =>
  `<configuration><lifecycleMappingMetadata><pluginExecutions><pluginExecution><pluginExecutionFilter><groupId>g</groupId><artifactId>a</artifactId><versionRange>1</versionRange><goals><goal>x</goal></goals></pluginExecutionFilter><action>${action}</action></pluginExecution></pluginExecutions></lifecycleMappingMetadata></configuration>`

describe('the parent chain of each root POM', () => {
  test('read from the repository, parent of parent too: plugins in build, pluginManagement and profiles, goals ignored', () => {
    const repository = tempFolder({
      [inRepository('p.test', 'one')]: pom(
        'p.test',
        'one',
        `${parentOf('two')}<build><pluginManagement><plugins>${plugin('io.managed', 'gen-${project.artifactId}', 'generate')}</plugins></pluginManagement></build>`,
      ),
      [inRepository('p.test', 'two')]: pom(
        'p.test',
        'two',
        `<profiles><profile><id>x</id><build><plugins>${plugin('io.profiled', 'runner', 'run')}</plugins></build></profile></profiles>`,
      ),
    })
    const root = tempFolder({ 'pom.xml': child(parentOf('one')) })
    const poms = [nodePath.join(root, 'pom.xml')]
    const parents = parentChains(root, poms, repository)
    expect(parents.unreadable).toBeUndefined()
    expect(parents.missing).toEqual([])
    expect(parents.chains.get(poms[0] ?? '')?.map((p) => p.label)).toEqual(['p.test:one:1.0', 'p.test:two:1.0'])
    // Without the chain (before this change): nothing of the parents is ignored.
    expect(untrustedLifecycleMappings(root, poms).ignored).toEqual([])
    const mappings = untrustedLifecycleMappings(root, poms, parents.chains)
    // `${project.artifactId}` in the parent is the child's (`conf`), as in Maven's inherited model.
    expect(mappings.ignored).toEqual(['io.managed:gen-conf:generate', 'io.profiled:runner:run'])
  })

  test('a module whose parent is the root POM (default relativePath): read there, nothing looked up', () => {
    const root = tempFolder({
      'pom.xml': pom('p.test', 'aggregate', `<build><plugins>${plugin('io.top', 'top', 'go')}</plugins></build>`),
      'module/pom.xml': pom('p.test', 'module', parentOf('aggregate', '')),
    })
    const poms = [nodePath.join(root, 'pom.xml'), nodePath.join(root, 'module/pom.xml')]
    const parents = parentChains(root, poms, tempFolder())
    expect(parents.missing).toEqual([])
    expect(parents.chains.get(poms[1] ?? '')?.map((p) => p.label)).toEqual(['pom.xml'])
  })

  test('missing from the repository: listed to fetch; unjudgeable ones (malformed, naming extensions, by a property) said', () => {
    const root = tempFolder({ 'pom.xml': child(parentOf('absent')) })
    const poms = [nodePath.join(root, 'pom.xml')]
    expect(parentChains(root, poms, tempFolder()).missing).toEqual(['p.test:absent:1.0'])
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      [pom('p.test', 'other'), /is malformed: p\.test:absent:1\.0 names p\.test:other:1\.0/],
      ['not xml', /cannot be judged: it is not a POM/],
      [
        pom('p.test', 'absent', '<build><extensions><extension><groupId>x</groupId></extension></extensions></build>'),
        /names build <extensions>/,
      ],
      [
        pom(
          'p.test',
          'absent',
          `<build><pluginManagement><plugins><plugin><artifactId>lifecycle-mapping</artifactId>${mapping('<execute/>')}</plugin></plugins></pluginManagement></build>`,
        ),
        /names an m2e lifecycle mapping/,
      ],
      [
        pom(
          'p.test',
          'absent',
          `<build><plugins><plugin><artifactId>native</artifactId><extensions>true</extensions></plugin></plugins></build>`,
        ),
        /marks org\.apache\.maven\.plugins:native <extensions>true<\/extensions>, and the build uses it/,
      ],
    ]
    for (const [text, why] of cases) {
      const repository = tempFolder({ [inRepository('p.test', 'absent')]: text })
      expect(parentChains(root, poms, repository).unreadable).toMatch(why)
    }
    const byProperty = tempFolder({ 'pom.xml': child(parentOf('absent').replace('1.0', '${parent.version}')) })
    expect(parentChains(byProperty, [nodePath.join(byProperty, 'pom.xml')], tempFolder()).unreadable).toMatch(
      /not named by plain coordinates/,
    )
    // A plugin a parent names by a property only a profile defines: Maven resolves it, codeseam cannot.
    const hidden = tempFolder({
      [inRepository('p.test', 'absent')]: pom(
        'p.test',
        'absent',
        `<build><plugins>${plugin('${hidden.group}', 'p', 'x')}</plugins></build>`,
      ),
    })
    const chains = parentChains(root, poms, hidden).chains
    expect(untrustedLifecycleMappings(root, poms, chains).unknown).toMatch(
      /^the parent POM p\.test:absent:1\.0 of pom\.xml names a plugin by a property codeseam cannot resolve \(\$\{hidden\.group\}\)/,
    )
  })

  test("what common parents name harmlessly: a lifecycle mapping that only ignores (Apache's), a managed plugin marked extensions (Spring Boot's) until the build uses it (a profile without activation only when named)", () => {
    const repository = tempFolder({
      [inRepository('p.test', 'common')]: pom(
        'p.test',
        'common',
        `<build><pluginManagement><plugins><plugin><groupId>org.graalvm</groupId><artifactId>native</artifactId><extensions>true</extensions></plugin></plugins></pluginManagement></build><profiles><profile><id>native</id><build><plugins><plugin><groupId>org.graalvm</groupId><artifactId>native</artifactId></plugin></plugins></build></profile><profile><id>only-eclipse</id><build><pluginManagement><plugins><plugin><groupId>org.eclipse.m2e</groupId><artifactId>lifecycle-mapping</artifactId>${mapping('<ignore/>')}</plugin></plugins></pluginManagement></build></profile></profiles>`,
      ),
    })
    const root = tempFolder({ 'pom.xml': child(parentOf('common')) })
    const poms = [nodePath.join(root, 'pom.xml')]
    const parents = parentChains(root, poms, repository)
    expect(parents.unreadable).toBeUndefined()
    expect(parents.chains.get(poms[0] ?? '')?.map((p) => p.label)).toEqual(['p.test:common:1.0'])
    // A profile named in the project's m2e settings (the repository's .settings) turns the parent's `native` profile on.
    mkdirSync(nodePath.join(root, '.settings'))
    writeFileSync(nodePath.join(root, '.settings', 'org.eclipse.m2e.core.prefs'), 'activeProfiles=native\n')
    expect(parentChains(root, poms, repository).unreadable).toMatch(
      /marks org\.graalvm:native <extensions>true<\/extensions>, and the build uses it/,
    )
    rmSync(nodePath.join(root, '.settings'), { recursive: true })
    // The root names the managed plugin in its build: Maven would load it as an extension.
    writeFileSync(
      poms[0] ?? '',
      child(parentOf('common')).replace(
        '</project>',
        '<build><plugins><plugin><groupId>org.graalvm</groupId><artifactId>native</artifactId></plugin></plugins></build></project>',
      ),
    )
    expect(parentChains(root, poms, repository).unreadable).toMatch(
      /^the parent POM p\.test:common:1\.0 marks org\.graalvm:native <extensions>true<\/extensions>, and the build uses it/,
    )
  })

  test('an untrusted plan with a parent codeseam cannot read: Maven import off, in its own data folder, said as degraded', async () => {
    const profile = (await builtinProfiles()).find((p) => p.id === 'jdtls')
    if (profile === undefined) throw new Error('no jdtls profile')
    const unique = nodePath
      .basename(tempFolder())
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
    const root = tempFolder({ 'pom.xml': child(parentOf(`nowhere-${unique}`)) })
    const plan = planSpawn(profile, { root, trust: 'untrusted', env: {}, prepared: ['https://repo.example answered 404 for it'] })
    const java = (plan.settings as { java: { import: { maven?: { enabled: boolean }; gradle: { enabled: boolean } } } }).java
    expect(java.import.maven?.enabled).toBe(false)
    expect(plan.args.at(-1)).toMatch(/-untrusted-unimported$/)
    expect(plan.degraded).toMatch(
      new RegExp(
        `^Maven import off for this untrusted root: the parent POM p\\.test:nowhere-${unique}:1\\.0 could not be read \\(https://repo\\.example answered 404 for it\\)`,
      ),
    )
    // The same root with the parent's POM beside it (its relativePath): imported, its data folder the usual one.
    writeFileSync(nodePath.join(root, 'pom.xml'), child(parentOf(`nowhere-${unique}`, '<relativePath>parent/pom.xml</relativePath>')))
    mkdirSync(nodePath.join(root, 'parent'))
    writeFileSync(nodePath.join(root, 'parent', 'pom.xml'), pom('p.test', `nowhere-${unique}`))
    const imported = planSpawn(profile, { root, trust: 'untrusted', env: {} })
    expect((imported.settings as { java: { import: { maven?: unknown } } }).java.import.maven).toEqual({ enabled: true })
    expect(imported.degraded).toBeUndefined()
    expect(imported.args.at(-1)).toMatch(/-untrusted$/)
  })
})

describe('fetching the missing parents (a repository served over HTTP by the test)', () => {
  const served = new Map<string, string>()
  let server: Server | undefined
  const start = async (): Promise<string> => {
    server = createServer((request, response) => {
      const body = served.get(request.url ?? '')
      if (request.url?.includes('/slow/') === true) return // never answers
      response.writeHead(body === undefined ? 404 : 200).end(body)
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    return `http://127.0.0.1:${address.port}/maven2`
  }
  afterAll(() => {
    server?.closeAllConnections()
    server?.close()
  })

  test('each level fetched into the repository until none is missing; a 404 and a server that never answers are said', async () => {
    const remote = await start()
    served.set(`/maven2/${inRepository('p.test', 'one')}`, pom('p.test', 'one', parentOf('two')))
    served.set(
      `/maven2/${inRepository('p.test', 'two')}`,
      pom('p.test', 'two', `<build><plugins>${plugin('io.x', 'y', 'z')}</plugins></build>`),
    )
    const root = tempFolder({ 'pom.xml': child(parentOf('one')) })
    const poms = [nodePath.join(root, 'pom.xml')]
    const repository = tempFolder()
    expect(await fetchParents(root, poms, repository, { deadline: Date.now() + 10_000, remote })).toEqual([])
    const parents = parentChains(root, poms, repository)
    expect(parents.chains.get(poms[0] ?? '')?.map((p) => p.label)).toEqual(['p.test:one:1.0', 'p.test:two:1.0'])
    expect(untrustedLifecycleMappings(root, poms, parents.chains).ignored).toEqual(['io.x:y:z'])

    const absent = tempFolder({ 'pom.xml': child(parentOf('absent')) })
    expect(await fetchParents(absent, [nodePath.join(absent, 'pom.xml')], tempFolder(), { deadline: Date.now() + 10_000, remote })).toEqual(
      [`${remote} answered 404 for p.test:absent:1.0`],
    )
    const slow = tempFolder({ 'pom.xml': child(parentOf('slow')) })
    const began = Date.now()
    const said = await fetchParents(slow, [nodePath.join(slow, 'pom.xml')], tempFolder(), {
      deadline: Date.now() + 500,
      remote: `${remote}/slow`,
    })
    expect(said).toEqual([`p.test:slow:1.0 was not fetched from ${remote}/slow within 1 s`])
    expect(Date.now() - began).toBeLessThan(5_000)
  })
})
