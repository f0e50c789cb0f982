import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

/*
 * The plugins an untrusted import must not run. m2e executes a plugin during the import (on configuration) when a
 * lifecycle mapping says `<execute><runOnConfiguration>true`, and a plugin's own jar may carry such a mapping
 * (`META-INF/m2e/lifecycle-mapping-metadata.xml`): any plugin on Maven Central a POM names could run that way.
 * m2e takes, for each plugin execution, the first mapping in this order (LifecycleMappingFactory
 * `getProjectMetadataSourcesMap` / `asList`): the POM and its parents (`lifecycle-mapping` configuration and
 * `<?m2e …?>` instructions), the workspace's lifecycle mappings file (JDT LS:
 * `java.configuration.maven.lifecycleMappings`), the installed bundles' mappings, the plugins' own jars, m2e's
 * defaults. So a workspace file that maps a plugin's goals to `<ignore/>` outranks the plugin's jar. Its filters
 * cannot be wildcards (`PluginExecutionFilter.match`: groupId and artifactId equal, the goal in the list), so every
 * plugin and goal the root's POMs name is listed, except what Java source folders need: maven-compiler-plugin
 * (m2e's Java configurator) and build-helper-maven-plugin's `add-source` / `add-test-source` (they add a folder
 * to the model and nothing else). The parents' plugins are listed too (parents.ts reads each chain); a parent
 * that names a `lifecycle-mapping` or `<?m2e?>` instructions (which outrank this file) is not imported at all.
 */

/** Plugin goals left to their own mapping: the Java configurator and the source folders (`group:artifact:goal`). */
const needed = new Set([
  'org.apache.maven.plugins:maven-compiler-plugin:compile',
  'org.apache.maven.plugins:maven-compiler-plugin:testCompile',
  'org.codehaus.mojo:build-helper-maven-plugin:add-source',
  'org.codehaus.mojo:build-helper-maven-plugin:add-test-source',
])

/** A plugin a POM names, and the goals its executions name. */
export interface NamedPlugin {
  readonly groupId: string
  readonly artifactId: string
  readonly goals: ReadonlyArray<string>
  /** Under `<pluginManagement>`: configuration for a use elsewhere, not a use. */
  readonly managed?: true
  /** `<extensions>true</extensions>`: Maven loads the plugin into the build when it is used. */
  readonly extensions?: true
  /** In a `<profile>` without `<activation>`: used only when a profile is asked for by name. */
  readonly namedProfile?: true
}

/** A POM's `<parent>`: `relativePath` undefined when not given (Maven's default `../pom.xml`), '' when empty. */
export interface ParentReference {
  groupId?: string
  artifactId?: string
  version?: string
  relativePath?: string
}

export interface PomReading {
  readonly plugins: NamedPlugin[]
  readonly properties: Map<string, string>
  readonly parent?: ParentReference
}

/** The `<plugin>` elements of a POM (under any `<plugins>`) with their goals, and its properties; tags only, no schema. */
export function readPom(text: string): PomReading {
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
  const stack: string[] = []
  const properties = new Map<string, string>()
  let parent: ParentReference | undefined
  const open: Array<{
    depth: number
    groupId?: string
    artifactId?: string
    goals: string[]
    managed: boolean
    extensions?: true
    profile?: number
  }> = []
  const found: Array<NamedPlugin & { readonly profile?: number }> = []
  // Whether each `<profile>` (in order) has an `<activation>`: one without is never active unless asked for by name.
  const activated: boolean[] = []
  let text_ = ''
  for (const match of withoutComments.matchAll(/<(\/?)([\w.:-]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const [, closing, name, selfClosing, content] = match
    if (content !== undefined) {
      text_ += content
      continue
    }
    if (name === 'relativePath' && selfClosing === '/' && stack.join('/') === 'project/parent') (parent ??= {}).relativePath = ''
    if (name === undefined || selfClosing === '/') continue
    if (closing !== '/') {
      stack.push(name)
      text_ = ''
      if (name === 'profile' && stack.at(-2) === 'profiles') activated.push(false)
      if (name === 'activation' && stack.at(-2) === 'profile') activated[activated.length - 1] = true
      if (name === 'plugin' && stack.at(-2) === 'plugins')
        open.push({
          depth: stack.length,
          goals: [],
          managed: stack.includes('pluginManagement'),
          ...(stack.includes('profile') ? { profile: activated.length - 1 } : {}),
        })
      continue
    }
    const value = text_.trim()
    const plugin = open.at(-1)
    const within = plugin === undefined ? [] : stack.slice(plugin.depth)
    if (plugin !== undefined && within.length === 1 && (name === 'groupId' || name === 'artifactId')) plugin[name] = value
    else if (plugin !== undefined && within.join('/') === 'executions/execution/goals/goal') plugin.goals.push(value)
    else if (plugin !== undefined && within.length === 1 && name === 'extensions' && value === 'true') plugin.extensions = true
    else if (stack.length === 3 && stack[1] === 'properties') properties.set(name, value)
    else if (stack.length === 2 && (name === 'groupId' || name === 'artifactId' || name === 'version'))
      properties.set(`project.${name}`, value)
    else if (stack.length === 3 && stack[1] === 'parent') {
      if (name === 'groupId' || name === 'artifactId' || name === 'version' || name === 'relativePath') (parent ??= {})[name] = value
      if ((name === 'groupId' || name === 'version') && !properties.has(`project.${name}`)) properties.set(`project.${name}`, value)
    }
    if (name === 'plugin' && plugin?.depth === stack.length) {
      open.pop()
      if (plugin.artifactId !== undefined)
        found.push({
          groupId: plugin.groupId ?? 'org.apache.maven.plugins',
          artifactId: plugin.artifactId,
          goals: plugin.goals,
          ...(plugin.managed ? { managed: true as const } : {}),
          ...(plugin.extensions === undefined ? {} : { extensions: true as const }),
          ...(plugin.profile === undefined ? {} : { profile: plugin.profile }),
        })
    }
    stack.pop()
    text_ = ''
  }
  const plugins = found.map(({ profile, ...plugin }) =>
    profile !== undefined && activated[profile] !== true ? { ...plugin, namedProfile: true as const } : plugin,
  )
  return { plugins, properties, ...(parent === undefined ? {} : { parent }) }
}

/** A POM in a root POM's parent chain (parents.ts). */
export interface ParentPom {
  /** `group:artifact:version` when read from the repository, else its path relative to the root. */
  readonly label: string
  readonly reading: PomReading
}

/** `${name}` replaced from the properties; undefined when one is not known. */
function resolve(value: string, properties: ReadonlyMap<string, string>): string | undefined {
  let unknown = false
  const resolved = value.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
    const found = properties.get(name.replace(/^pom\./, 'project.'))
    if (found === undefined || found.includes('${')) unknown = true
    return found ?? ''
  })
  return unknown ? undefined : resolved
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * The workspace lifecycle mappings for an untrusted root: every goal of every plugin its POMs and their parents
 * (`parents`: each POM's chain, nearest first) name mapped to `<ignore/>` (but {@link needed}); `refused` when a root
 * POM names a plugin or goal by a property it does not define, `unknown` when a parent does.
 */
export function untrustedLifecycleMappings(
  root: string,
  poms: ReadonlyArray<string>,
  parents: ReadonlyMap<string, ReadonlyArray<ParentPom>> = new Map(),
): { readonly xml: string; readonly refused?: string; readonly unknown?: string; readonly ignored: ReadonlyArray<string> } {
  const readings = poms.flatMap((pom) => {
    try {
      return [{ pom, reading: readPom(readFileSync(pom, 'utf8')) }]
    } catch {
      return []
    }
  })
  const shared = new Map<string, string>()
  for (const { reading } of readings) for (const [key, value] of reading.properties) if (!key.startsWith('project.')) shared.set(key, value)
  const goals = new Map<string, Set<string>>()
  for (const { pom, reading } of readings) {
    // Maven's inheritance: the nearer POM's property wins; a parent's plugins are the child's, read with its values.
    const chain = parents.get(pom) ?? []
    const properties = new Map([
      ...shared,
      ...[...chain].reverse().flatMap((parent) => [...parent.reading.properties]),
      ...reading.properties,
    ])
    const named = [
      ...reading.plugins.map((plugin) => ({ plugin, from: undefined })),
      ...chain.flatMap((parent) => parent.reading.plugins.map((plugin) => ({ plugin, from: parent.label }))),
    ]
    for (const { plugin, from } of named) {
      const coordinates = [plugin.groupId, plugin.artifactId, ...plugin.goals].map((value) => [value, resolve(value, properties)] as const)
      const unresolved = coordinates.find(([, resolved]) => resolved === undefined || resolved === '')
      if (unresolved !== undefined) {
        const why = `names a plugin by a property codeseam cannot resolve (${unresolved[0]}), so its m2e mapping cannot be turned off`
        return from === undefined
          ? { xml: '', ignored: [], refused: `${nodePath.relative(root, pom)} ${why}` }
          : { xml: '', ignored: [], unknown: `the parent POM ${from} of ${nodePath.relative(root, pom)} ${why}` }
      }
      const [groupId, artifactId, ...listed] = coordinates.map(([, resolved]) => resolved as string)
      const key = `${groupId}:${artifactId}`
      const set = goals.get(key) ?? new Set<string>()
      for (const goal of listed) if (!needed.has(`${key}:${goal}`)) set.add(goal)
      goals.set(key, set)
    }
  }
  const entries = [...goals].filter(([, set]) => set.size > 0).sort(([a], [b]) => a.localeCompare(b))
  const executions = entries.map(([key, set]) => {
    const [groupId, artifactId] = key.split(':') as [string, string]
    const list = [...set]
      .sort()
      .map((goal) => `<goal>${escape(goal)}</goal>`)
      .join('')
    return `    <pluginExecution>
      <pluginExecutionFilter><groupId>${escape(groupId)}</groupId><artifactId>${escape(artifactId)}</artifactId><versionRange>(,)</versionRange><goals>${list}</goals></pluginExecutionFilter>
      <action><ignore/></action>
    </pluginExecution>`
  })
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by codeseam for an untrusted root: m2e runs none of these plugin executions while importing it (this file
     outranks the mappings a plugin's own jar carries). -->
<lifecycleMappingMetadata>
  <pluginExecutions>
${executions.join('\n')}
  </pluginExecutions>
</lifecycleMappingMetadata>
`
  return { xml, ignored: entries.flatMap(([key, set]) => [...set].sort().map((goal) => `${key}:${goal}`)) }
}
