// The workspaces the oracle judges codeseam on: the generated shapes, a snapshot of this repository, the
// real-repository corpora in ../shared/corpora (when present), and the generated Go and Rust fixtures
// (toolchain-fixtures.ts).
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { OracleLanguage } from './oracle.js'
import { shapeWriters, type ShapeName } from './shapes.js'

export interface OracleWorkspace {
  readonly name: string
  /** Canonical (realpath) root. */
  readonly root: string
  readonly language: OracleLanguage
  readonly remove: () => void
}

/** This repository's root (the folder holding packages/*), found from this file's location. */
export function repositoryRoot(): string {
  return nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..')
}

export function generatedWorkspace(name: ShapeName, parent?: string): OracleWorkspace {
  const generated = shapeWriters[name](parent)
  return { name, root: generated.root, language: 'typescript', remove: generated.remove }
}

/** Recreates a symbolic link as it is (relative targets keep pointing inside the copy). */
function copyLink(from: string, to: string): void {
  symlinkSync(readlinkSync(from), to)
}

/** A package's node_modules holds links into the root's store: copy the links only, never caches. */
function copyLinksOnly(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const source = nodePath.join(from, entry.name)
    if (entry.isSymbolicLink()) copyLink(source, nodePath.join(to, entry.name))
    else if (entry.isDirectory()) copyLinksOnly(source, nodePath.join(to, entry.name))
  }
}

function copyTree(from: string, to: string, isRoot: boolean, repository: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = nodePath.join(from, entry.name)
    const target = nodePath.join(to, entry.name)
    if (entry.name === '.git' || entry.name === 'dist') continue
    if (entry.name === 'node_modules' && entry.isDirectory()) {
      // The root store is linked, not copied (outside the snapshot: what the server finds there is outside
      // the workspace for both sides); workspace packages' links stay relative, so `@codeseam/lsp` resolves
      // to the snapshot's own packages/lsp.
      if (isRoot) symlinkSync(nodePath.join(repository, 'node_modules'), target)
      else copyLinksOnly(source, target)
    } else if (entry.isSymbolicLink()) {
      copyLink(source, target)
    } else if (entry.isDirectory()) {
      copyTree(source, target, false, repository)
    } else if (entry.isFile()) {
      copyFileSync(source, target)
    }
  }
}

/**
 * This repository, as it is on disk now, copied to a temp folder: other people edit the working tree while
 * the test runs, and the oracle and codeseam must see the same files. The root node_modules is a link to the
 * real one, so dependencies resolve as they do in the repository.
 */
export function repositorySnapshot(repository = repositoryRoot()): OracleWorkspace {
  if (!existsSync(nodePath.join(repository, 'packages')) || !lstatSync(nodePath.join(repository, 'packages')).isDirectory()) {
    throw new Error(`${repository} is not this repository's root (no packages/)`)
  }
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-oracle-repo-')))
  copyTree(repository, root, true, repository)
  return { name: 'this repository', root, language: 'typescript', remove: () => rmSync(root, { recursive: true, force: true }) }
}

/** The corpora's folder (CODESEAM_CORPORA_DIR, else ../shared/corpora beside the repository), or undefined when it is missing. */
export function corporaFolder(repository = repositoryRoot()): string | undefined {
  const folder = process.env['CODESEAM_CORPORA_DIR'] || nodePath.join(repository, '..', 'shared', 'corpora')
  return existsSync(nodePath.join(folder, 'unpack.sh')) ? folder : undefined
}

const corpusLanguages: Readonly<Record<string, OracleLanguage>> = {
  flask: 'python',
  'vscode-languageserver-node': 'typescript',
  'gorilla-mux': 'go',
  bytes: 'rust',
  thiserror: 'rust',
  javapoet: 'java',
}

/**
 * One corpus, unpacked on its own into a fresh temp folder (each trust level of a Rust corpus gets its own copy:
 * cargo writes Cargo.lock, and trusted rust-analyzer builds into target/). Fails when the archive is missing.
 */
export function unpackCorpus(name: string, repository = repositoryRoot()): OracleWorkspace {
  const folder = corporaFolder(repository)
  const archive = folder === undefined ? undefined : nodePath.join(folder, `${name}.tar.gz`)
  if (archive === undefined || !existsSync(archive)) throw new Error(`corpus ${name} is not in ${folder ?? '(no corpora folder)'}`)
  const dest = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-oracle-${name}-`)))
  // What unpack.sh does for each archive.
  const result = spawnSync('tar', ['-xzf', archive, '-C', dest], { encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) {
    rmSync(dest, { recursive: true, force: true })
    throw new Error(`unpacking ${archive} failed (${String(result.status ?? result.signal)}): ${result.stderr}`)
  }
  return {
    name,
    root: realpathSync(nodePath.join(dest, name)),
    language: corpusLanguages[name] ?? 'typescript',
    remove: () => rmSync(dest, { recursive: true, force: true }),
  }
}

/** Unpacks every corpus into one fresh temp folder (with the corpora's own unpack.sh); [] when they are missing. */
export function unpackCorpora(repository = repositoryRoot()): OracleWorkspace[] {
  const folder = corporaFolder(repository)
  if (folder === undefined) return []
  const dest = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-oracle-corpora-')))
  const result = spawnSync('bash', [nodePath.join(folder, 'unpack.sh'), dest], { encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) throw new Error(`unpack.sh failed (${String(result.status ?? result.signal)}): ${result.stderr}`)
  const names = readdirSync(dest)
    .filter((name) => lstatSync(nodePath.join(dest, name)).isDirectory())
    .sort()
  const left = new Set(names)
  return names.map((name) => ({
    name,
    root: realpathSync(nodePath.join(dest, name)),
    language: corpusLanguages[name] ?? 'typescript',
    remove: () => {
      rmSync(nodePath.join(dest, name), { recursive: true, force: true })
      left.delete(name)
      if (left.size === 0) rmSync(dest, { recursive: true, force: true })
    },
  }))
}

/**
 * Links each workspace package (a package.json with a `name`, node_modules and dot folders aside) into the root's
 * node_modules by name, as an installed monorepo has them (the corpora README: cross-package imports then resolve).
 */
export function linkWorkspacePackages(root: string): number {
  let linked = 0
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.') || depth > 4) continue
      const folder = nodePath.join(dir, entry.name)
      const manifest = nodePath.join(folder, 'package.json')
      if (existsSync(manifest)) {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name
        const link = typeof name === 'string' && name !== '' ? nodePath.join(root, 'node_modules', name) : undefined
        if (link !== undefined && !existsSync(link)) {
          mkdirSync(nodePath.dirname(link), { recursive: true })
          symlinkSync(folder, link, 'dir')
          linked++
        }
      }
      walk(folder, depth + 1)
    }
  }
  walk(root, 0)
  return linked
}
