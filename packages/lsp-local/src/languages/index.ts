import { realpathSync } from 'node:fs'

import type { LspOperation } from '@codeseam/lsp'

import { supportedOperations } from '../profile/profile-operations.js'
import type { ServerProfile } from '../profile/profiles.js'

import { clangdSupport } from './clangd/record.js'
import { installRecipe, packageLabel, type InstallSource } from './install.js'
import { recordsByFolder } from './list.js'
import { pathEntriesMatching } from './lookup.js'
import { pyrightSupport } from './pyright/record.js'
import type { LanguageRecord, Located } from './record.js'
import { nativeTypeScriptSupport } from './typescript/record.js'

/**
 * Every built-in language server, in the order people find them listed (each record's `order`, then by id): the
 * records are the folders of languages/ (the generated list.ts); nothing else lists languages.
 */
export const languageRecords: ReadonlyArray<LanguageRecord> = [...recordsByFolder].sort(
  (a, b) => (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY) || a.id.localeCompare(b.id),
)

/**
 * The record a profile is: a built-in by id, else the built-in whose server its command line runs (a user's own
 * gopls profile takes gopls's trust rule). Undefined for a server codeseam does not know.
 */
export function recordFor(profile: Pick<ServerProfile, 'id' | 'command' | 'args'>): LanguageRecord | undefined {
  return (
    languageRecords.find((record) => record.id === profile.id) ??
    languageRecords.find((record) => record.recognizes(profile.command, profile.args))
  )
}

/** The built-in profile of a record, given what its lookup found. */
export function profileOf(record: LanguageRecord, located: Located): ServerProfile {
  const profile = record.profile(located)
  const major = located.found ? (located.major ?? 0) : undefined
  return {
    id: record.id,
    ...profile,
    command: located.command,
    args: [...(located.leadingArgs ?? []), ...profile.args],
    operations: supportedOperations(record.support, major).filter((op) => !located.found || located.lacking?.[op] === undefined),
    readiness: record.readiness,
    install: installRecipe(record.id, record.install).command,
    projectRoot: record.projectRoot ?? 'workspace',
    ...(record.enabled === false ? { enabled: false } : {}),
    ...(located.found ? (located.bundled === true ? { bundled: true } : {}) : { unavailable: located.why }),
  }
}

/** The built-in profiles, each record's server looked up (concurrently; nothing the workspace chose runs). */
export async function builtinProfiles(): Promise<ReadonlyArray<ServerProfile>> {
  const found = await Promise.all(languageRecords.map((record) => record.locate()))
  return languageRecords.map((record, i) => profileOf(record, found[i] as Located))
}

/**
 * The built-in profiles as the records alone tell them, before any server is looked up (no executable found, no
 * version probed): the ids, claims and settings are the records' own (none depends on what a lookup finds), the
 * operations each record's whole support table, a superset of any installed version's. For knowing at once which
 * provider serves which file (RFC 0034, "Start"); never for starting a server (the command is only the record's id).
 */
export function unlocatedProfiles(): ReadonlyArray<ServerProfile> {
  return languageRecords.map((record) => {
    const { unavailable: _notLookedUp, ...profile } = profileOf(record, { found: false, command: record.id, why: 'not looked up yet' })
    return profile
  })
}

/** Every host variable a built-in server's toolchain depends on (passed or selecting): the daemon key includes them all. */
export function toolchainEnvironment(): ReadonlyArray<string> {
  return [...new Set(languageRecords.flatMap((record) => [...record.environment.passed, ...(record.environment.selects ?? [])]))]
}

/**
 * Where PATH resolves the executables the records look up on it (name → real path, the first on PATH): what a PATH
 * decides about the servers, their toolchains and interpreters, without the folders that hold none of them.
 */
export function pathExecutables(path = process.env['PATH'] ?? ''): Readonly<Record<string, string>> {
  const patterns = languageRecords.flatMap((record) => (record.environment.onPath === undefined ? [] : [record.environment.onPath.source]))
  const found: Record<string, string> = {}
  for (const entry of pathEntriesMatching(new RegExp(patterns.map((p) => `(?:${p})`).join('|')), path)) {
    if (found[entry.name] !== undefined) continue
    try {
      found[entry.name] = realpathSync(entry.path)
    } catch {
      found[entry.name] = entry.path
    }
  }
  return found
}

/** The minimum set of the native TS 7 server: everything but declaration and type hierarchy. */
export const nativeTypeScriptOperations: ReadonlyArray<LspOperation> = supportedOperations(nativeTypeScriptSupport)

/** typescript-language-server on TypeScript 6 also has no type hierarchy; it answers declaration via definition. */
export const typeScriptLanguageServerOperations: ReadonlyArray<LspOperation> = nativeTypeScriptOperations

/** pyright: everything but implementation, formatting, inlay hints, type hierarchy and code actions (see its record). */
export const pyrightOperations: ReadonlyArray<LspOperation> = supportedOperations(pyrightSupport)

/**
 * clangd adds declaration and (from clangd 17, the standard LSP form) type hierarchy. What it offers depends on
 * its version: 14 (Debian 12) has neither standard type hierarchy nor standard inlay hints (16) nor outgoing
 * calls (20). {@link clangdOperationsFor} picks the set for the installed version.
 */
export const clangdOperations: ReadonlyArray<LspOperation> = supportedOperations(clangdSupport)

/** The clangd minimum set for a major version (see {@link clangdOperations}). */
export function clangdOperationsFor(major: number | undefined): ReadonlyArray<LspOperation> {
  return supportedOperations(clangdSupport, major ?? 0)
}

/**
 * The files that mark a project's root, from every record's profile (`tsconfig.json`, `go.mod`, `Cargo.toml`,
 * `pyproject.toml`, …): where a command line started in a subfolder finds its workspace when no VCS root encloses it.
 */
export function projectRootMarkers(): ReadonlyArray<string> {
  return [...new Set(languageRecords.flatMap((record) => record.profile({ found: true, command: record.id }).rootMarkers ?? []))]
}

/** One built-in language as this machine has it: for `codeseam doctor`, install scripts and docs. */
export interface BuiltinLanguage {
  readonly id: string
  readonly language: string
  readonly server: string
  readonly extensions: ReadonlyArray<string>
  /** Exact file names it claims (`Dockerfile`), and the `#!` interpreters (`bash`). */
  readonly fileNames: ReadonlyArray<string>
  readonly interpreters: ReadonlyArray<string>
  readonly found: boolean
  /** Where the executable is, when found. */
  readonly command?: string
  /** Its arguments before the profile's own (the script a `node` runs). */
  readonly leadingArgs?: ReadonlyArray<string>
  readonly version?: string
  /** Why it cannot run, when not found. */
  readonly why?: string
  /** What this installation cannot answer though the server could, and why (a helper program missing). */
  readonly lacking?: Readonly<Partial<Record<LspOperation, string>>>
  /** The exact install command, and where it installs from. */
  readonly install: string
  readonly installSource: InstallSource
  /** Where the install puts the executable, when that is not obvious. */
  readonly installLands?: string
  /** The package it comes from: a package URL (`pkg:golang/golang.org/x/tools/gopls@v0.23.0`), or `dependency:NAME`. */
  readonly installPackage: string
  /** The executables of that package codeseam runs, the server's first. */
  readonly installBinaries: ReadonlyArray<string>
  readonly enabledByDefault: boolean
}

/** Every built-in language server, looked up on this machine now (nothing is installed or started). */
export async function builtinLanguages(): Promise<ReadonlyArray<BuiltinLanguage>> {
  return Promise.all(
    languageRecords.map(async (record) => {
      const located = await record.locate()
      const profile = record.profile(located)
      const recipe = installRecipe(record.id, record.install)
      return {
        id: record.id,
        language: record.language,
        server: record.server,
        extensions: Object.keys(profile.extensions),
        fileNames: Object.keys(profile.fileNames ?? {}),
        interpreters: Object.keys(profile.interpreters ?? {}),
        found: located.found,
        ...(located.found
          ? {
              command: located.command,
              ...(located.leadingArgs === undefined || located.leadingArgs.length === 0 ? {} : { leadingArgs: located.leadingArgs }),
              ...(located.version === undefined ? {} : { version: located.version }),
              ...(located.lacking === undefined ? {} : { lacking: located.lacking }),
            }
          : { why: located.why }),
        install: recipe.command,
        installSource: recipe.source,
        ...(recipe.lands === undefined ? {} : { installLands: recipe.lands }),
        installPackage: packageLabel(record.install),
        installBinaries: record.install.bin,
        enabledByDefault: record.enabled !== false,
      }
    }),
  )
}
