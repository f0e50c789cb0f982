import { spawn } from 'node:child_process'

/** What a finished command printed. */
export interface RunResult {
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

/**
 * The environment for installers and the installed CLI: this process's, without what `pnpm test` (a package
 * script) adds about the repository's own package, so npm and pnpm in the temporary folder behave as in a
 * user's shell. Registry, proxy and cache settings (`npm_config_*`) are kept.
 */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/i.test(name)) continue
    if (
      ['npm_config_user_agent', 'npm_execpath', 'npm_node_execpath', 'INIT_CWD', 'PNPM_SCRIPT_SRC_DIR', 'PNPM_PACKAGE_NAME'].includes(name)
    )
      continue
    env[name] = value
  }
  return env
}

/**
 * Runs a command without a shell (a `.cmd` shim on Windows needs one), collects its output and rejects with
 * all of it when it exits non-zero or is still running after `timeoutMs` (then it is killed).
 */
export function run(
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly timeoutMs: number; readonly env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
      timeout: options.timeoutMs,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const ms = performance.now() - started
      if (code === 0) resolve({ stdout, stderr, ms })
      else {
        const why = signal === null ? `exited with ${code}` : `was killed by ${signal} (limit ${options.timeoutMs} ms)`
        reject(new Error(`\`${command} ${args.join(' ')}\` in ${options.cwd} ${why}\nstdout:\n${stdout}\nstderr:\n${stderr}`))
      }
    })
  })
}
