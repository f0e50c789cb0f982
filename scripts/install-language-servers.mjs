// Installs the built-in language servers codeseam does not ship inside its npm dependencies (from the Go module proxy,
// crates.io, the npm registry and PyPI; those off by default too, since their tests run them), each with its language
// record's own install command, when the record's lookup does not find a working one. Nothing here lists languages
// or install sources: the records and packages/lsp-local/src/languages/install.ts do. The indexers `codeseam index` runs
// (packages/lsp-local/src/indexers/) are installed the same way. What a user installs
// (`installedBy: 'user'`) is run here; Debian packages (clangd, Ruby's TypeProf, Perl::LanguageServer) need root and are .ci/run's.
//   node scripts/install-language-servers.mjs          # after `pnpm build`
// Under CI=true a failed install fails (exit 1); otherwise it is reported and the tests that need it skip.
import { spawnSync } from 'node:child_process'

import { builtinIndexers, builtinLanguages, installSourceFacts } from '../packages/lsp-local/dist/index.js'

const strict = process.env.CI === 'true'
let failed = 0
for (const language of await builtinLanguages()) {
  if (installSourceFacts[language.installSource].installedBy !== 'user') continue
  if (language.found) {
    console.log(`${language.id}: found ${language.command}${language.version === undefined ? '' : ` (${language.version})`}`)
    continue
  }
  console.log(`${language.id}: ${language.why}\n${language.id}: installing: ${language.install}`)
  const started = Date.now()
  const run = spawnSync('bash', ['-c', language.install], { stdio: 'inherit', env: { ...process.env, GOTOOLCHAIN: 'local' } })
  const seconds = Math.round((Date.now() - started) / 1000)
  if (run.status === 0) console.log(`${language.id}: installed in ${seconds} s`)
  else {
    failed++
    console.error(`${language.id}: the install failed after ${seconds} s (exit ${run.status ?? run.signal})`)
  }
}
// The indexers `codeseam index` runs (issue 52), stated like the servers: their install command into codeseam's cache.
for (const indexer of await builtinIndexers()) {
  if (indexer.found) {
    console.log(`${indexer.id}: found ${indexer.entry} (${indexer.version})`)
    continue
  }
  console.log(`${indexer.id}: ${indexer.why}\n${indexer.id}: installing: ${indexer.install}`)
  const started = Date.now()
  const run = spawnSync('bash', ['-c', indexer.install], { stdio: 'inherit', env: process.env })
  const seconds = Math.round((Date.now() - started) / 1000)
  if (run.status === 0) console.log(`${indexer.id}: installed in ${seconds} s`)
  else {
    failed++
    console.error(`${indexer.id}: the install failed after ${seconds} s (exit ${run.status ?? run.signal})`)
  }
}
if (failed > 0 && strict) {
  console.error(`${failed} language server install(s) failed and CI=true: failing`)
  process.exit(1)
}
