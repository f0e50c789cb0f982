// The chaos loop: at random intervals it kills the language server or the whole daemon, changes files behind
// the server's back (append, in-place rewrite of the chaos slot, touch) and swaps files for symlinks (to a file
// inside the root, or outside it) and back. It never deletes or rewrites marker text: appends add lines, the
// slot rewrite changes fixed-width digits through one file descriptor, and swaps move files aside with
// rename/link calls that never clobber (a file that cannot go back stays as an "orphan" and is still scanned).
import {
  appendFileSync,
  closeSync,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs'
import * as nodePath from 'node:path'

import { allProcesses, daemonsOf, languageServersBelow, MODULES, moduleName, SLOT_PREFIX, SLOT_WIDTH } from './ground.mjs'

const isRegular = (path) => lstatSync(path, { throwIfNoEntry: false })?.isFile() === true

export class Chaos {
  constructor({ ground, random, log }) {
    this.ground = ground
    this.random = random
    this.log = log
    this.counts = {}
    /** path (relative) → { aside, target } for files currently swapped for a symlink. */
    this.swapped = new Map()
    this.serial = 0
    /** When each kind of action last ran (for the rate limits). */
    this.times = {}
  }

  record(kind, details) {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1
    this.log({ type: 'chaos', kind, ...details })
  }

  modulePath(i) {
    return `src/${moduleName(i)}.ts`
  }

  abs(relative) {
    return nodePath.join(this.ground.root, relative)
  }

  /** A module that is a regular file right now (not swapped). */
  regularModule() {
    const candidates = Array.from({ length: MODULES }, (_, i) => this.modulePath(i)).filter(
      (p) => !this.swapped.has(p) && isRegular(this.abs(p)),
    )
    return candidates.length === 0 ? undefined : this.random.pick(candidates)
  }

  /** Whether `kind` happened fewer than `max` times in the last `ms` (see `step`). */
  within(kind, max, ms) {
    const times = (this.times[kind] ??= [])
    const now = Date.now()
    while (times.length > 0 && times[0] < now - ms) times.shift()
    return times.length < max
  }

  /** One random action. */
  step() {
    // lsp-local gives up on a server that crashes 6 times within 300 s (UNAVAILABLE until its host restarts):
    // stay under that, so the soak keeps testing recovery rather than the give-up answer; and one daemon kill
    // per 45 s at most, so each daemon lives long enough to be worth killing.
    const actions = [
      ['kill-language-server', this.within('kill-language-server', 4, 300_000) ? 4 : 0],
      ['kill-daemon', this.within('kill-daemon', 1, 45_000) ? 1 : 0],
      ['append', 3],
      ['rewrite-slot', 2],
      ['touch', 2],
      ['symlink-inside', 2],
      ['symlink-outside', 1],
      ['unswap', this.swapped.size === 0 ? 0 : 4],
    ]
    const total = actions.reduce((sum, [, w]) => sum + w, 0)
    let roll = this.random.next() * total
    let kind = actions[0][0]
    for (const [name, weight] of actions) {
      if (roll < weight) {
        kind = name
        break
      }
      roll -= weight
    }
    ;(this.times[kind] ??= []).push(Date.now())
    this[kind.replace(/-(\w)/g, (_, c) => c.toUpperCase())]()
  }

  killLanguageServer() {
    const all = allProcesses()
    const daemons = daemonsOf(all, this.ground.runtime)
    this.killOne(
      'kill-language-server',
      languageServersBelow(
        all,
        daemons.map((d) => d.pid),
      ),
    )
  }

  killDaemon() {
    this.killOne('kill-daemon', daemonsOf(allProcesses(), this.ground.runtime))
  }

  /** SIGKILLs one of `processes`, recorded as `kind` (or why not). */
  killOne(kind, processes) {
    if (processes.length === 0) return this.record(`${kind} (none running)`, {})
    const victim = this.random.pick(processes)
    try {
      process.kill(victim.pid, 'SIGKILL')
      this.record(kind, { pid: victim.pid })
    } catch (error) {
      this.record(`${kind} (gone)`, { pid: victim.pid, error: error.code })
    }
  }

  append() {
    const file = this.regularModule()
    if (file === undefined) return
    const line = `// chaos append ${++this.serial}\n`
    appendFileSync(this.abs(file), line)
    this.record('append', { file, line: line.trim() })
  }

  /** Rewrites the digits of the chaos slot in place, through one descriptor (so never another inode's text). */
  rewriteSlot() {
    const file = this.regularModule()
    if (file === undefined) return
    const fd = openSync(this.abs(file), 'r+')
    try {
      const size = fstatSync(fd).size
      const buffer = Buffer.alloc(size)
      readSync(fd, buffer, 0, size, 0)
      const at = buffer.indexOf(SLOT_PREFIX)
      if (at < 0) return this.record('rewrite-slot (no slot)', { file })
      const digits = String(++this.serial).padStart(SLOT_WIDTH, '0').slice(-SLOT_WIDTH)
      writeSync(fd, digits, at + SLOT_PREFIX.length)
      this.record('rewrite-slot', { file, digits })
    } finally {
      closeSync(fd)
    }
  }

  touch() {
    const file = this.regularModule()
    if (file === undefined) return
    const now = new Date()
    utimesSync(this.abs(file), now, now)
    this.record('touch', { file })
  }

  symlinkInside() {
    const file = this.regularModule()
    if (file === undefined) return
    const others = Array.from({ length: MODULES }, (_, i) => this.modulePath(i)).filter((p) => p !== file && !this.swapped.has(p))
    if (others.length === 0) return
    const other = this.random.pick(others)
    this.swap(file, `./${nodePath.basename(other)}`, 'symlink-inside')
  }

  symlinkOutside() {
    const file = this.regularModule()
    if (file === undefined) return
    this.swap(file, this.random.pick(this.ground.sentinels), 'symlink-outside')
  }

  /** Moves the file aside and puts a symlink in its place. */
  swap(file, target, kind) {
    const aside = `${file}.chaos-aside-${++this.serial}`
    renameSync(this.abs(file), this.abs(aside))
    try {
      symlinkSync(target, this.abs(file))
    } catch (error) {
      // Something (a codeseam write) recreated the file in between: leave both, the aside file is an orphan.
      this.record(`${kind} (conflict: orphan kept)`, { file, aside, error: error.code })
      return
    }
    this.swapped.set(file, { aside, target })
    this.record(kind, { file, target, aside })
  }

  unswap(file = this.random.pick([...this.swapped.keys()])) {
    const { aside, target } = this.swapped.get(file)
    this.swapped.delete(file)
    // Move whatever is at the path now out of the way (a rename never loses content), then decide.
    const moved = `${file}.chaos-moved-${++this.serial}`
    try {
      renameSync(this.abs(file), this.abs(moved))
    } catch (error) {
      this.record('unswap (path gone)', { file, error: error.code })
      return this.restore(aside, file)
    }
    const info = lstatSync(this.abs(moved))
    if (info.isSymbolicLink() && readlinkSync(this.abs(moved)) === target) {
      unlinkSync(this.abs(moved))
      this.restore(aside, file)
      this.record('unswap', { file, target })
    } else {
      // Not our symlink any more: a writer replaced it. Keep its content; put it back if the path is free.
      this.record('unswap (replaced by a regular file)', { file, target, moved })
      this.restore(moved, file)
      this.restore(aside, file)
    }
  }

  /** Puts `from` back at `to` with link+unlink, which never clobbers; when `to` is taken, `from` stays as an orphan. */
  restore(from, to) {
    try {
      linkSync(this.abs(from), this.abs(to))
      unlinkSync(this.abs(from))
    } catch (error) {
      this.record('orphan kept', { orphan: from, path: to, error: error.code })
    }
  }

  /** Undoes every swap still in place (after the clients stopped). */
  restoreAll() {
    for (const file of [...this.swapped.keys()]) this.unswap(file)
  }
}
