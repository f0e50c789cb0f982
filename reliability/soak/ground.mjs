// The ground the soak runs on: a seeded random source, a generated TypeScript workspace in a scratch folder
// with a sentinel folder next to it (outside the root), tree hashing and marker counting, and /proc facts for
// finding the language servers to kill and the processes that must be gone at the end.
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

/** mulberry32: a small seeded PRNG, so a seed replays the same choices (timing still varies). */
export function randomSource(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    between: (lo, hi) => lo + next() * (hi - lo),
  }
}

export const MODULES = 12
export const moduleName = (i) => `mod${String(i).padStart(2, '0')}`
/** The chaos slot: a fixed-width line chaos rewrites in place (never touching anything else). */
export const SLOT_PREFIX = '// chaos-slot: '
export const SLOT_WIDTH = 8

/** Module i: imports from two others, three functions, a class, a constant. */
function moduleText(i) {
  const name = moduleName(i)
  const a = moduleName((i + 1) % MODULES)
  const b = moduleName((i + 5) % MODULES)
  return `${SLOT_PREFIX}${'0'.repeat(SLOT_WIDTH)}
import { ${a}_base } from './${a}.js'
import { Box_${b} } from './${b}.js'

/** The base value of ${name}. */
export function ${name}_base(x: number): number {
  return x * ${i + 2} + 1
}

/** Combines ${name} with ${a}. */
export function ${name}_combine(x: number, y: number): number {
  return ${name}_base(x) + ${a}_base(y)
}

export function ${name}_boxed(x: number): Box_${name} {
  const other = new Box_${b}(x)
  return new Box_${name}(other.get() + ${name}_combine(x, 1))
}

/** A box of ${name}. */
export class Box_${name} {
  constructor(private readonly value: number) {}

  get(): number {
    return this.value
  }

  twice(): number {
    return this.get() * 2
  }
}

export const limit_${name} = ${100 + i}
`
}

/** The functions a client may aim at in a module (stable: chaos never removes them). */
export function functionsOf(i) {
  const name = moduleName(i)
  return [`${name}_base`, `${name}_combine`, `${name}_boxed`]
}
export function symbolsOf(i) {
  const name = moduleName(i)
  return [...functionsOf(i), `Box_${name}`, `Box_${name}.get`, `Box_${name}.twice`, `limit_${name}`]
}

export const SENTINEL_TOKEN = 'SOAK-SENTINEL-OUTSIDE-THE-ROOT'

/**
 * Writes scratch/workspace (the root: package.json, tsconfig.json, src/modNN.ts, src/index.ts) and
 * scratch/outside (sentinel files the chaos may link to from inside the root).
 */
export async function createGround() {
  const scratch = realpathSync(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-soak-')))
  const root = nodePath.join(scratch, 'workspace')
  const outside = nodePath.join(scratch, 'outside')
  const runtime = nodePath.join(scratch, 'runtime')
  mkdirSync(nodePath.join(root, 'src'), { recursive: true })
  mkdirSync(outside, { recursive: true })
  mkdirSync(runtime, { recursive: true, mode: 0o700 })
  writeFileSync(nodePath.join(root, 'package.json'), '{ "name": "soak-workspace", "private": true, "type": "module" }\n')
  writeFileSync(
    nodePath.join(root, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }, null, 2)}\n`,
  )
  for (let i = 0; i < MODULES; i++) writeFileSync(nodePath.join(root, 'src', `${moduleName(i)}.ts`), moduleText(i))
  const imports = Array.from({ length: MODULES }, (_, i) => `import { ${moduleName(i)}_boxed } from './${moduleName(i)}.js'`)
  writeFileSync(
    nodePath.join(root, 'src', 'index.ts'),
    `${imports.join('\n')}\n\nexport const all = [${Array.from({ length: MODULES }, (_, i) => `${moduleName(i)}_boxed(${i})`).join(', ')}]\n`,
  )
  const sentinels = []
  for (let k = 0; k < 3; k++) {
    const file = nodePath.join(outside, `secret${k}.ts`)
    writeFileSync(
      file,
      `export const outside_secret_${k} = '${SENTINEL_TOKEN}-${k}'\n\nexport function outside_fn_${k}(): string {\n  return outside_secret_${k}\n}\n`,
    )
    sentinels.push(file)
  }
  return { scratch, root, outside, runtime, sentinels }
}

/** Every entry under dir (not following symlinks): relative path and kind. */
export function walk(dir, prefix = '') {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other'
    out.push({ relative, kind })
    if (kind === 'dir') out.push(...walk(nodePath.join(dir, entry.name), relative))
  }
  return out.sort((x, y) => x.relative.localeCompare(y.relative))
}

/** Content hash, mode and link target of everything under dir: the state "nothing changed" compares. */
export function treeState(dir) {
  const out = {}
  for (const { relative, kind } of walk(dir)) {
    const path = nodePath.join(dir, relative)
    if (kind === 'file') out[relative] = `file ${createHash('sha256').update(readFileSync(path)).digest('hex')} ${lstatSync(path).mode}`
    else if (kind === 'link') out[relative] = `link ${readlinkSync(path)}`
    else out[relative] = kind
  }
  return out
}

/** Names of the lsp-local atomic writer's temp files (`.name.codeseam-<uuid>.tmp`). */
export const isWriterTemp = (relative) => /(^|\/)\.[^/]*\.codeseam-[0-9a-f-]+\.tmp$/.test(relative)

/** The text of every regular file under the root (symlinks not followed), writer temp files apart. */
export function rootTexts(root) {
  const texts = []
  const temps = []
  for (const { relative, kind } of walk(root)) {
    if (kind !== 'file') continue
    if (isWriterTemp(relative)) temps.push(relative)
    else texts.push({ relative, text: readFileSync(nodePath.join(root, relative), 'utf8') })
  }
  return { texts, temps }
}

/** How often each marker occurs as a whole word, and where. */
export function countMarkers(texts, markers) {
  const counts = new Map()
  for (const marker of markers) counts.set(marker, { count: 0, files: [] })
  const pattern = /\bsoak_c\d+_n\d+\b/g
  for (const { relative, text } of texts) {
    for (const match of text.matchAll(pattern)) {
      const entry = counts.get(match[0])
      if (entry === undefined) {
        counts.set(match[0], { count: 1, files: [relative], unexpected: true })
      } else {
        entry.count += 1
        entry.files.push(relative)
      }
    }
  }
  return counts
}

// ---- processes (/proc) ----

function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pid, state: fields[0], ppid: Number(fields[1]), start: fields[19] }
  } catch {
    return undefined
  }
}

export function allProcesses() {
  const out = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = readStat(Number(name))
    if (stat !== undefined) out.push(stat)
  }
  return out
}

export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return ''
  }
}

function environOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
  } catch {
    return ''
  }
}

function cwdOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return ''
  }
}

/** Whether this exact process (pid and start time) still runs; a zombie counts as gone. */
export function stillRunning(proc) {
  const now = readStat(proc.pid)
  return now !== undefined && now.start === proc.start && now.state !== 'Z' && now.state !== 'X'
}

/** Every live descendant of the given pids. */
export function descendants(all, pids) {
  const found = []
  let frontier = [...pids]
  while (frontier.length > 0) {
    const children = all.filter((p) => frontier.includes(p.ppid) && p.state !== 'Z')
    found.push(...children)
    frontier = children.map((p) => p.pid)
  }
  return found
}

/** The daemons of this run: `codeseam … serve` processes whose environment names this run's runtime folder. */
export function daemonsOf(all, runtime) {
  return all.filter(
    (p) =>
      p.state !== 'Z' && / serve( |$)/.test(commandLine(p.pid)) && environOf(p.pid).split('\0').includes(`CODESEAM_RUNTIME_DIR=${runtime}`),
  )
}

/** Language-server processes (TypeScript's native server and friends) below the given pids. */
export function languageServersBelow(all, pids) {
  return descendants(all, pids).filter((p) => /--lsp|--stdio|langserver|pyright/.test(commandLine(p.pid)))
}

/**
 * Processes that belong to this run by what they carry, whoever their parent is now: the runtime folder in
 * their environment, or the scratch folder in their command line or as their working directory.
 */
export function processesOfRun(all, scratch, runtime) {
  return all.filter((p) => {
    if (p.pid === process.pid || p.state === 'Z') return false
    if (commandLine(p.pid).includes(scratch)) return true
    if (cwdOf(p.pid).startsWith(scratch)) return true
    return environOf(p.pid).split('\0').includes(`CODESEAM_RUNTIME_DIR=${runtime}`)
  })
}
