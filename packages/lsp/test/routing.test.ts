import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { createLsp, isLspError, type LspProvider } from '../src/index.js'
import { createMemoryWorkspace } from '../src/testing/index.js'
import { interpreterNames, interpreterOf } from '../src/routing.js'
import { staticProvider } from './providers.js'

/** Which provider serves a file (RFC 0020): exact name, then extension, then the `#!` line of an extension-less file. */

const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-routing-')))
const root = nodePath.join(scratch, 'repo')
const outside = nodePath.join(scratch, 'outside')
mkdirSync(nodePath.join(root, 'bin'), { recursive: true })
mkdirSync(outside)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const withRoutes = (id: string, extensions: Record<string, string>, routes: Pick<LspProvider, 'fileNames' | 'interpreters'>) =>
  Object.assign(staticProvider(id, extensions), routes)

function service() {
  const lsp = createLsp()
  lsp.registerProvider(
    withRoutes(
      'shell',
      { '.sh': 'shellscript' },
      { fileNames: { '.bashrc': 'shellscript' }, interpreters: { bash: 'shellscript', sh: 'shellscript' } },
    ),
  )
  lsp.registerProvider(withRoutes('docker', {}, { fileNames: { Dockerfile: 'dockerfile' } }))
  lsp.registerProvider(withRoutes('json', { '.json': 'json' }, { fileNames: { 'tsconfig.json': 'jsonc' } }))
  lsp.registerProvider(withRoutes('python', { '.py': 'python' }, { interpreters: { python: 'python', python3: 'python' } }))
  lsp.registerWorkspace(createMemoryWorkspace({ id: 'repo', root, files: {} }))
  return lsp
}

const script = (name: string, text: string, folder = root) => {
  const path = nodePath.join(folder, name)
  writeFileSync(path, text)
  return path
}

describe('routing by name and #! line', () => {
  it('an exact name wins over the extension, and serves files that have none', () => {
    const lsp = service()
    expect(lsp.providerFor(nodePath.join(root, 'tsconfig.json'))).toEqual({ providerId: 'json', languageId: 'jsonc' })
    expect(lsp.providerFor(nodePath.join(root, 'package.json'))).toEqual({ providerId: 'json', languageId: 'json' })
    expect(lsp.providerFor(nodePath.join(root, 'Dockerfile'))).toEqual({ providerId: 'docker', languageId: 'dockerfile' })
    expect(lsp.providerFor(nodePath.join(root, '.bashrc'))).toEqual({ providerId: 'shell', languageId: 'shellscript' })
    // Names are exact: a Dockerfile in a folder is one, a file ending in "Dockerfile" is not.
    expect(lsp.providerFor(nodePath.join(root, 'deploy', 'Dockerfile'))?.providerId).toBe('docker')
    expect(lsp.providerFor(nodePath.join(root, 'MyDockerfile'))).toBeUndefined()
  })

  it('an extension-less script goes by the interpreter its first line names, env and versions included', () => {
    const lsp = service()
    const cases: Array<[string, string | undefined]> = [
      ['#!/bin/bash\necho hi\n', 'shell'],
      ['#!/usr/bin/env bash\nset -e\n', 'shell'],
      ['#!/bin/sh -e\n', 'shell'],
      ['#!/usr/bin/env -S python3.11 -u\nprint(1)\n', 'python'],
      ['#!/usr/bin/env PYTHONPATH=. python3\n', 'python'],
      ['#!/usr/bin/env ruby\n', undefined],
      ['echo no shebang\n', undefined],
    ]
    cases.forEach(([text, provider], i) => {
      expect(lsp.providerFor(script(`bin/tool${i}`, text))?.providerId, text).toBe(provider)
    })
    // A file with an extension nobody serves is not read for its #! line.
    expect(lsp.providerFor(script('bin/tool.rb', '#!/bin/bash\n'))).toBeUndefined()
  })

  it('never reads a file outside the open workspaces, also through a link', () => {
    const lsp = service()
    const away = script('tool', '#!/bin/bash\n', outside)
    expect(lsp.providerFor(away)).toBeUndefined()
    symlinkSync(away, nodePath.join(root, 'bin', 'linked'))
    expect(lsp.providerFor(nodePath.join(root, 'bin', 'linked'))).toBeUndefined()
  })

  it('a query for an unrouted file says what it tried', async () => {
    const lsp = service()
    const path = script('bin/unknown', 'plain text\n')
    const error = await lsp.query({ operation: 'hover', root, path, position: { line: 0, character: 0 } }).catch((e: unknown) => e)
    expect(isLspError(error, 'UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toMatch(
      /no file extension, its name is not one a provider claims, and its first line names no interpreter/,
    )
    expect((error as Error).message).toContain('file names: .bashrc, Dockerfile, tsconfig.json')
    expect((error as Error).message).toContain('#! interpreters: bash, python, python3, sh')
  })

  it('the routed language id reaches the provider', async () => {
    const lsp = createLsp()
    const shell = withRoutes('shell', {}, { interpreters: { bash: 'shellscript' } })
    lsp.registerProvider(shell)
    lsp.registerWorkspace(createMemoryWorkspace({ id: 'repo', root, files: {} }))
    const path = script('bin/run', '#!/usr/bin/env bash\n')
    await lsp.query({ operation: 'hover', root, path, position: { line: 0, character: 0 } })
    expect(shell.calls).toEqual([{ operation: 'hover', languageId: 'shellscript', path }])
  })

  it('names and interpreters are exclusive reservations, like extensions, and are validated', () => {
    const lsp = service()
    const conflict = (provider: LspProvider) => {
      try {
        lsp.registerProvider(provider)
      } catch (error) {
        return isLspError(error) ? `${error.code}: ${error.message}` : String(error)
      }
      return 'registered'
    }
    expect(conflict(withRoutes('docker2', {}, { fileNames: { Dockerfile: 'dockerfile' } }))).toBe(
      'CONFLICT: file name "Dockerfile" is already served by provider "docker"',
    )
    expect(conflict(withRoutes('zsh', {}, { interpreters: { bash: 'shellscript' } }))).toBe(
      'CONFLICT: interpreter "bash" is already served by provider "shell"',
    )
    expect(conflict(withRoutes('bad', {}, { fileNames: { 'a/b': 'x' } }))).toMatch(/^INVALID_PROVIDER: .*"a\/b" is not a file name/)
    expect(conflict(withRoutes('bad2', {}, { interpreters: { 'env bash': 'x' } }))).toMatch(
      /^INVALID_PROVIDER: .*"env bash" is not an? interpreter/,
    )
    expect(conflict(withRoutes('none', {}, {}))).toMatch(/claims no extensions, file names or interpreters/)
    // A refused registration reserved nothing: the name is still the first owner's.
    expect(lsp.providerFor(nodePath.join(root, 'Dockerfile'))?.providerId).toBe('docker')
  })

  it('a released provider frees its names and interpreters', async () => {
    const lsp = createLsp()
    const release = lsp.registerProvider(withRoutes('docker', {}, { fileNames: { Dockerfile: 'dockerfile' } }))
    await release()
    expect(lsp.providerFor(nodePath.join(root, 'Dockerfile'))).toBeUndefined()
    lsp.registerProvider(withRoutes('docker2', {}, { fileNames: { Dockerfile: 'dockerfile' } }))
    expect(lsp.providerFor(nodePath.join(root, 'Dockerfile'))?.providerId).toBe('docker2')
  })

  it('interpreterOf and interpreterNames', () => {
    expect(interpreterOf('#!/usr/bin/env node')).toBe('node')
    expect(interpreterOf('#! /bin/zsh')).toBe('zsh')
    expect(interpreterOf('# not one')).toBeUndefined()
    expect(interpreterNames('python3.11')).toEqual(['python3.11', 'python3', 'python'])
    expect(interpreterNames('bash')).toEqual(['bash'])
  })
})
