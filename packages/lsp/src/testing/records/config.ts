import type { ConformanceFixture } from '../fixture-record.js'
import { kitFixtureDir } from '../fixture.js'

/*
 * The fixture records of a repository's configuration, documentation and script languages: YAML, JSON, CSS, HTML,
 * Markdown, shell, Dockerfile, TOML and protobuf. Their servers outline, validate and format a document at a time;
 * each record names what its language has (a YAML anchor's definition, a Markdown header's references) and leaves
 * the rest out, so those checks are skipped, never passed.
 */

/** YAML (`fixtures/conformance-yaml`): a schema named by a local `$schema` comment, an anchor and its alias. */
export const yamlFixture: ConformanceFixture = {
  languageId: 'yaml',
  dir: kitFixtureDir('conformance-yaml'),
  main: 'service.yml',
  definition: {
    use: { file: 'service.yml', text: 'health_port: *listen', at: 'listen' },
    declaration: { file: 'service.yml', text: '&listen 8080', at: '8080' },
  },
  hover: { at: { file: 'service.yml', text: 'port: &listen', at: 'port' }, includes: ['TCP port'] },
  unformatted: { file: 'service.yml', text: 'queue:    orders' },
  documentSymbols: {
    file: 'service.yml',
    symbols: [
      { name: 'name', kind: 'string' },
      { name: 'worker', kind: 'module', children: [{ name: 'queue', kind: 'string' }] },
    ],
  },
  typeError: { file: 'broken.yml', text: 'name: second' },
}

/** JSON (`fixtures/conformance-json`): a package manifest whose local `$schema` describes its fields. */
export const jsonFixture: ConformanceFixture = {
  languageId: 'json',
  dir: kitFixtureDir('conformance-json'),
  main: 'package.json',
  hover: { at: { file: 'package.json', text: '"version": "1.0.0"', at: 'version' }, includes: ['semver'] },
  unformatted: { file: 'package.json', text: '"build":    "tsc"' },
  documentSymbols: {
    file: 'package.json',
    symbols: [
      { name: 'name', kind: 'string' },
      { name: 'scripts', kind: 'module', children: [{ name: 'build', kind: 'string' }] },
    ],
  },
  typeError: { file: 'broken.json', text: '"version" "1.0.0"' },
}

/** CSS (`fixtures/conformance-css`): rules, an unknown property, a malformed declaration. */
export const cssFixture: ConformanceFixture = {
  languageId: 'css',
  dir: kitFixtureDir('conformance-css'),
  main: 'site.css',
  hover: { at: { file: 'site.css', text: 'margin: 0 auto', at: 'margin' }, includes: ['margin'] },
  unformatted: { file: 'site.css', text: 'padding:4px' },
  documentSymbols: {
    file: 'site.css',
    symbols: [
      { name: '.header', kind: 'class' },
      { name: '.footer', kind: 'class' },
    ],
  },
  typeError: { file: 'broken.css', text: '.panel { width: 10px; height }' },
}

/** HTML (`fixtures/conformance-html`): elements, an embedded stylesheet and script (HTML itself is not validated). */
export const htmlFixture: ConformanceFixture = {
  languageId: 'html',
  dir: kitFixtureDir('conformance-html'),
  main: 'index.html',
  hover: { at: { file: 'index.html', text: '<main id="content">', at: 'main' }, includes: ['main'] },
  unformatted: { file: 'index.html', text: '<p>Text</p>' },
  documentSymbols: { file: 'index.html', symbols: [{ name: 'html', kind: 'field' }] },
}

/** Markdown (`fixtures/conformance-markdown`): a header linked from two files, a link definition (its checks are warnings: no type error). */
export const markdownFixture: ConformanceFixture = {
  languageId: 'markdown',
  dir: kitFixtureDir('conformance-markdown'),
  main: 'README.md',
  definition: {
    use: { file: 'README.md', text: '(docs/guide.md#deployment)', at: 'guide.md' },
    declaration: { file: 'docs/guide.md', text: '## Deployment', at: 'Deployment' },
  },
  references: { declaration: { file: 'docs/guide.md', text: '## Deployment', at: 'Deployment' }, word: 'deployment' },
  documentSymbols: {
    file: 'README.md',
    symbols: [
      { name: 'Shop', kind: 'string' },
      { name: '[faq]', kind: 'constant' },
    ],
  },
  workspaceSymbol: { query: 'Deployment', name: '## Deployment', kind: 'string', file: 'docs/guide.md' },
}

/** Shell (`fixtures/conformance-bash`): functions and a variable across two sourced scripts, an unclosed `if`. */
export const bashFixture: ConformanceFixture = {
  languageId: 'shellscript',
  dir: kitFixtureDir('conformance-bash'),
  main: 'scripts/deploy.sh',
  definition: {
    use: { file: 'scripts/deploy.sh', text: 'deploy_to "$TARGET_HOST"', at: 'deploy_to' },
    declaration: { file: 'scripts/deploy.sh', text: 'deploy_to() {', at: 'deploy_to' },
  },
  references: { declaration: { file: 'scripts/lib.sh', text: 'log_line() {', at: 'log_line' }, word: 'log_line' },
  hover: { at: { file: 'scripts/deploy.sh', text: 'set -euo pipefail', at: 'set' }, includes: ['set'] },
  unformatted: { file: 'scripts/deploy.sh', text: '  log_line "done"' },
  documentSymbols: {
    file: 'scripts/deploy.sh',
    symbols: [
      { name: 'TARGET_HOST', kind: 'variable' },
      { name: 'deploy_to', kind: 'function' },
    ],
  },
  typeError: { file: 'scripts/broken.sh', text: 'if [ -n "$1" ]; then' },
}

/** Dockerfile (`fixtures/conformance-dockerfile`): two build stages; an `EXPOSE` that is no port. */
export const dockerfileFixture: ConformanceFixture = {
  languageId: 'dockerfile',
  dir: kitFixtureDir('conformance-dockerfile'),
  main: 'Dockerfile',
  hover: { at: { file: 'Dockerfile', text: 'WORKDIR /app', at: 'WORKDIR' }, includes: ['WORKDIR'] },
  completion: { at: { file: 'Dockerfile', text: 'EXPOSE 80', at: 'EXPOSE' }, labels: ['EXPOSE', 'ENV'] },
  unformatted: { file: 'Dockerfile', text: '    COPY . .' },
  documentSymbols: { file: 'Dockerfile', symbols: [{ name: 'FROM', kind: 'function' }] },
  typeError: { file: 'broken.dockerfile', text: 'EXPOSE notaport' },
}

/** TOML (`fixtures/conformance-toml`): a Cargo manifest; a key without a value. */
export const tomlFixture: ConformanceFixture = {
  languageId: 'toml',
  dir: kitFixtureDir('conformance-toml'),
  main: 'Cargo.toml',
  unformatted: { file: 'Cargo.toml', text: 'edition  =  "2021"' },
  documentSymbols: {
    file: 'Cargo.toml',
    symbols: [
      { name: 'package', kind: 'object', children: [{ name: 'name', kind: 'string' }] },
      { name: 'features', kind: 'object' },
    ],
  },
  typeError: { file: 'broken.toml', text: 'host =' },
}

/** Protocol Buffers (`fixtures/conformance-proto`, a buf v2 module): messages used across files; an unknown type. */
export const protoFixture: ConformanceFixture = {
  languageId: 'proto',
  dir: kitFixtureDir('conformance-proto'),
  main: 'proto/conf/v1/service.proto',
  definition: {
    use: { file: 'proto/conf/v1/service.proto', text: 'Circle circle = 1', at: 'Circle' },
    declaration: { file: 'proto/conf/v1/shapes.proto', text: 'message Circle', at: 'Circle' },
  },
  references: { declaration: { file: 'proto/conf/v1/shapes.proto', text: 'message Circle', at: 'Circle' }, word: 'Circle' },
  unformatted: { file: 'proto/conf/v1/shapes.proto', text: 'string   title = 2;' },
  documentSymbols: { file: 'proto/conf/v1/shapes.proto', symbols: [{ name: 'conf.v1.Circle', kind: 'class' }] },
  typeError: { file: 'proto/conf/v1/broken.proto', text: 'Unknown thing = 1;' },
}
