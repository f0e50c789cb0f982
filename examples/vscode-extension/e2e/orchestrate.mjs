// Starts code-server with the conformance extension, opens it in headless Chromium (the extension host
// starts only when a browser connects), waits for the extension's report, prints it, stops everything it
// started (by process group id) and exits 0 only if the kit passed.
import { spawn } from 'node:child_process'
import { readFileSync, watch } from 'node:fs'
import { createServer } from 'node:net'
import * as nodePath from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    'code-server': { type: 'string' },
    run: { type: 'string' },
    'timeout-ms': { type: 'string', default: '600000' },
  },
})
const run = values.run
const reportPath = nodePath.join(run, 'report.json')
const deadlineMs = Number(values['timeout-ms'])

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const children = []
function start(command, args, env = {}) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  children.push(child)
  return child
}
/** Stops every process this script started (their whole process groups) and resolves when they exited. */
async function stopAll() {
  for (const child of children) {
    child.stdout.removeAllListeners('data')
    child.stderr.removeAllListeners('data')
  }
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
    }
  }
  const exited = Promise.all(
    children.map((child) =>
      child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined,
    ),
  )
  // Bounded: whatever has not exited 10 s after SIGTERM gets SIGKILL.
  let timer
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, 10_000, 'late')
  })
  if ((await Promise.race([exited, late])) === 'late') {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
    }
    await exited
  }
  clearTimeout(timer)
}
process.on('exit', () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
})

/** Lines printed after everything stopped, so the closing `N passed, N failed` line is the last one. */
const summary = []
const say = (line) => summary.push(line)

/** Resolves when `stream` prints a line matching `pattern`; rejects at the deadline or if the process exits. */
function waitForLine(child, pattern, what, ms) {
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`${what}: not seen within ${ms} ms; output so far:\n${seen.slice(-4000)}`)), ms)
    const onData = (chunk) => {
      seen += chunk.toString()
      process.stdout.write(`[code-server] ${chunk}`)
      const match = pattern.exec(seen)
      if (match) {
        clearTimeout(timer)
        resolve(match)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what}: process exited with ${code}; output:\n${seen.slice(-4000)}`))
    })
  })
}

/** Resolves with the report file's JSON once it is written completely; rejects at the deadline. */
function waitForReport(ms) {
  return new Promise((resolve, reject) => {
    const tryRead = () => {
      try {
        const parsed = JSON.parse(readFileSync(reportPath, 'utf8'))
        watcher.close()
        clearTimeout(timer)
        resolve(parsed)
      } catch {}
    }
    const watcher = watch(run, () => tryRead())
    const timer = setTimeout(() => {
      watcher.close()
      reject(new Error(`no conformance report at ${reportPath} within ${ms} ms`))
    }, ms)
    tryRead()
  })
}

const started = Date.now()
try {
  const port = await freePort()
  const codeServer = start(
    values.node,
    [
      values['code-server'],
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--extensions-dir',
      nodePath.join(run, 'extensions'),
      '--user-data-dir',
      nodePath.join(run, 'user-data'),
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      nodePath.join(run, 'workspace'),
    ],
    { CODESEAM_E2E_REPORT: reportPath },
  )
  await waitForLine(codeServer, /HTTP server listening on/, 'code-server start', 120_000)
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(nodePath.join(run, 'workspace'))}`
  const browser = start('chromium', [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-dev-shm-usage',
    `--user-data-dir=${nodePath.join(run, 'chromium-profile')}`,
    '--remote-debugging-port=0',
    url,
  ])
  browser.stderr.on('data', (chunk) => {
    if (/error/i.test(String(chunk)) && !/dbus|gcm|Fontconfig/i.test(String(chunk))) process.stdout.write(`[chromium] ${chunk}`)
  })
  const result = await waitForReport(deadlineMs - (Date.now() - started))
  if (result.error) {
    say(`conformance extension failed inside VS Code ${result.vscodeVersion}:\n${result.error}`)
    say('0 passed, 1 failed')
    process.exitCode = 1
  } else {
    say(`\nVS Code ${result.vscodeVersion} (code-server), kit ran in ${result.elapsedMs} ms inside the extension host\n`)
    say(result.text)
    // The example extension's command, given a tool call as JSON, in the same window.
    const toolCallOk = result.toolCall?.ok === true && /main\.ts/.test(result.toolCall.text)
    say(`\n${toolCallOk ? 'PASS' : 'FAIL'}  example extension: codeseam.runToolCall code_navigate references of totalArea`)
    say(result.toolCall?.error ?? `${result.toolCall?.summary}\n${result.toolCall?.text}`)
    const { skipped } = result.report.counts
    const passed = result.report.counts.passed + (toolCallOk ? 1 : 0)
    const failed = result.report.counts.failed + (toolCallOk ? 0 : 1)
    say(`${passed} passed, ${failed} failed, ${skipped} skipped`)
    process.exitCode = result.report.passed && toolCallOk ? 0 : 1
  }
} catch (error) {
  say(String(error instanceof Error ? error.message : error))
  say('0 passed, 1 failed')
  process.exitCode = 1
} finally {
  await stopAll()
  console.log(summary.join('\n'))
}
