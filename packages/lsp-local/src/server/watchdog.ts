import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Socket } from 'node:net'

/**
 * Node has no parent-death signal, so a SIGKILLed host would orphan its servers. One small watchdog
 * process per host process holds a socket to it (fd 3) and the list of server process groups (`+PID` /
 * `-PID` lines); when the socket closes — the host exited, even by SIGKILL — it kills every group still
 * listed and exits. It runs in its own process group (a signal to the host's group does not reach it) and
 * ignores SIGINT/SIGTERM/SIGHUP: only the host's death or the host closing the socket ends it. Servers talk
 * to the host directly; no protocol byte passes through the watchdog.
 *
 * The watchdog is a POSIX shell (`/bin/sh`, about 1 MB resident) running {@link shellWatchdog}; only where
 * there is no `/bin/sh` (Windows) or it cannot be started does a second Node process (about 40 MB) run
 * {@link nodeWatchdog} instead.
 */

// Builtins only (read, case, kill): it never forks. The list is " 12 34 " (each pid between spaces), so
// removing one is two parameter expansions. `read` takes a pipe or socket byte by byte, so lines arriving
// together in one chunk are read one by one. A group already gone makes `kill` fail quietly and the loop
// goes on to the next.
const shellWatchdog = `trap '' INT TERM HUP
g=' '
while IFS= read -r l; do
  p=\${l#?}
  case $p in ''|*[!0-9]*) continue ;; esac
  case $l in
    +*) case $g in *" $p "*) ;; *) g="$g$p " ;; esac ;;
    -*) case $g in *" $p "*) g="\${g%% $p *} \${g#* $p }" ;; esac ;;
  esac
done <&3
for p in $g; do kill -s KILL -- "-$p" 2>/dev/null || :; done
exit 0
`

const nodeWatchdog = `
const net = require('node:net');
const control = new net.Socket({ fd: 3, readable: true, writable: false });
const groups = new Set();
let buffer = '';
control.on('data', (data) => {
  buffer += String(data);
  let end;
  while ((end = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    const pid = Number(line.slice(1));
    if (line[0] === '+') groups.add(pid); else if (line[0] === '-') groups.delete(pid);
  }
});
let done = false;
const hostGone = () => {
  if (done) return;
  done = true;
  for (const pid of groups) { try { process.kill(-pid, 'SIGKILL'); } catch {} }
  process.exit(0);
};
control.on('end', hostGone);
control.on('close', hostGone);
control.on('error', hostGone);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
`

/** Which program a watchdog runs: the shell script, or the Node fallback. */
export type WatchdogProgram = 'sh' | 'node'

const shellPath = '/bin/sh'
let nodeOnly = process.platform === 'win32' || !existsSync(shellPath)

let current: { child: ChildProcess; socket: Socket; exited: Promise<void>; program: WatchdogProgram } | undefined
/** A watchdog that was let go and may still be exiting. */
let leaving: { child: ChildProcess; exited: Promise<void> } | undefined
const guarded = new Set<number>()

function spawnWatchdog(program: WatchdogProgram): ChildProcess {
  const [command, args] =
    program === 'sh' ? [shellPath, ['-c', shellWatchdog, 'codeseam-watchdog']] : [process.execPath, ['-e', nodeWatchdog]]
  return spawn(command, args, {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    detached: true,
    windowsHide: true,
  })
}

function ensureWatchdog(): Socket {
  if (current !== undefined) return current.socket
  let program: WatchdogProgram = nodeOnly ? 'node' : 'sh'
  let child = spawnWatchdog(program)
  if (child.pid === undefined && program === 'sh') {
    // /bin/sh could not be started (its 'error' event follows): the Node watchdog from now on.
    child.on('error', () => {})
    nodeOnly = true
    program = 'node'
    child = spawnWatchdog(program)
  }
  const socket = child.stdio[3] as Socket
  socket.on('error', () => {})
  // The watchdog must never keep the host alive.
  child.unref()
  socket.unref()
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', () => resolve())
  })
  const entry = { child, socket, exited, program }
  current = entry
  void exited.then(() => {
    if (current !== entry) return
    current = undefined
    // It died while servers were still running (someone killed it): start a new one for them.
    if (guarded.size > 0) {
      const next = ensureWatchdog()
      for (const pid of guarded) next.write(`+${pid}\n`)
    }
  })
  return socket
}

/** Puts a server's process group under the watchdog. */
export function guardProcessGroup(pid: number): void {
  guarded.add(pid)
  ensureWatchdog().write(`+${pid}\n`)
}

/** Takes a group off the list once its server has exited; the last one lets the watchdog go. */
export function releaseProcessGroup(pid: number): void {
  if (!guarded.delete(pid) || current === undefined) return
  if (guarded.size > 0) {
    current.socket.write(`-${pid}\n`)
    return
  }
  const entry = current
  current = undefined
  leaving = { child: entry.child, exited: entry.exited }
  entry.socket.end()
}

/** The watchdog's pid, if one is running (for status and tests). */
export function watchdogPid(): number | undefined {
  return current?.child.pid
}

/** The program the running watchdog runs, if one is running (for status and tests). */
export function watchdogProgram(): WatchdogProgram | undefined {
  return current?.program
}

/**
 * Makes the next watchdog started the Node one even where `/bin/sh` exists, so tests cover the fallback.
 * A running watchdog is not replaced.
 */
export function useNodeWatchdog(): void {
  nodeOnly = true
}

/** Resolves once no watchdog of this process is running. */
export async function watchdogIdle(): Promise<void> {
  const exiting = leaving
  if (guarded.size > 0 || exiting === undefined) return
  // The watchdog is unref'd so it never keeps the host alive; but a caller awaiting this (dispose) must
  // see it settle even when nothing else keeps the event loop running, or node exits with the await
  // unsettled. Ref it for the wait only.
  exiting.child.ref()
  try {
    await exiting.exited
  } finally {
    exiting.child.unref()
    if (leaving === exiting) leaving = undefined
  }
}
