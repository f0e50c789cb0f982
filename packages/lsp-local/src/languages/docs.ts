import { lspOperations } from '@codeseam/lsp'

import { supportedOperations } from '../profile/profile-operations.js'

import { languageRecords } from './index.js'
import { installRecipe, installSourceFacts } from './install.js'
import type { LanguageRecord } from './record.js'

/*
 * The docs' language tables, rendered from the records (README.md "Languages", docs/lsp-local.md "Built-in
 * profiles"); test/language-docs.test.ts holds the docs to them.
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function extensionsOf(record: LanguageRecord): string {
  const profile = record.profile({ found: false, command: record.id, why: '' })
  // A profile that claims files by name only (Docker Compose) lists the names.
  return Object.keys(profile.extensions).length > 0
    ? Object.keys(profile.extensions).join(' ')
    : Object.keys(profile.fileNames ?? {}).join(' ')
}

function installOf(record: LanguageRecord): string {
  // The docs show the default cache folder, whatever this machine's XDG_CACHE_HOME.
  const install = installRecipe(record.id, record.install, {})
  if (install.source === 'dependency') return 'an npm dependency of @codeseam/lsp-local (installed with it)'
  return `\`${install.command}\`${install.lands === undefined ? '' : `; lands in ${install.lands}`}`
}

/** What a record's server answers, in words: "every operation except …". */
export function answersOf(record: LanguageRecord): string {
  const yes = new Set(supportedOperations(record.support))
  const no = lspOperations.filter((operation) => !yes.has(operation))
  const since = lspOperations.flatMap((operation) => {
    const support = record.support[operation]
    return typeof support === 'object' && 'since' in support ? [`${operation} from ${support.since}`] : []
  })
  const base = no.length === 0 ? 'every operation' : `every operation except ${no.join(', ')}`
  return since.length === 0 ? base : `${base} (by version: ${since.join(', ')})`
}

/** README.md's language table. */
export function readmeLanguageTable(records: ReadonlyArray<LanguageRecord> = languageRecords): string {
  return [
    '| language | server | installed by | notes |',
    '|---|---|---|---|',
    ...records.map(
      (r) =>
        `| ${cell(r.language)} | ${cell(r.server)}${r.enabled === false ? ' (off by default)' : ''} | ${cell(installOf(r))} | ${cell(r.notes)} |`,
    ),
  ].join('\n')
}

/** docs/lsp-local.md's table of built-in profiles. */
export function profileTable(records: ReadonlyArray<LanguageRecord> = languageRecords): string {
  return [
    '| profile | extensions | readiness | untrusted roots | answers (the minimum set the tests hold it to) |',
    '|---|---|---|---|---|',
    ...records.map(
      (r) =>
        `| \`${r.id}\`${r.enabled === false ? ' (off)' : ''} | ${extensionsOf(r)} | \`${r.readiness}\` | ${cell(r.trust.why)} | ${cell(answersOf(r))} |`,
    ),
  ].join('\n')
}

/** docs/cli.md's table of what `codeseam install` runs for each built-in language. */
export function installTable(records: ReadonlyArray<LanguageRecord> = languageRecords): string {
  return [
    '| id | language | from | `codeseam install ID` runs |',
    '|---|---|---|---|',
    ...records.map((r) => {
      const install = installRecipe(r.id, r.install, {})
      return `| \`${r.id}\` | ${cell(r.language)} | ${installSourceFacts[install.source].name} | ${install.source === 'dependency' ? 'nothing: reinstall codeseam' : `\`${cell(install.command)}\``} |`
    }),
  ].join('\n')
}
