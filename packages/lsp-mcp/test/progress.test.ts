import { createLsp, resultMeta, type LspProvider, type LspProviderStatus } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { progressLine } from '../src/cli/progress-line.js'
import { followCallProgress, type ProgressReport } from '../src/progress.js'

// Progress of one call: status changes of the servers under the call's roots become a stream a person can
// read (each piece of news once), and the CLI shows it as a redrawn line on a terminal or plain lines elsewhere.

function statusSource(): { provider: LspProvider; emit: (status: LspProviderStatus) => void } {
  const listeners = new Set<(status: LspProviderStatus) => void>()
  return {
    provider: {
      id: 'toy',
      extensions: { '.toy': 'toy' },
      operations: ['hover'],
      async query() {
        return { kind: 'hover', hover: null, meta: resultMeta('toy') } as never
      },
      onStatusChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
    emit: (status) => {
      for (const listener of listeners) listener(status)
    },
  }
}

describe('followCallProgress', () => {
  it('reports starting, then ready once, ignores flapping and other roots, and stops on dispose', async () => {
    const lsp = createLsp()
    const { provider, emit } = statusSource()
    lsp.registerProvider(provider)
    const reports: ProgressReport[] = []
    const progress = followCallProgress(lsp, [{ id: 'app', root: '/work/app' }], (r) => reports.push(r))
    const status = (state: LspProviderStatus['state'], root = '/work/app'): LspProviderStatus => ({
      providerId: 'toy',
      server: 'toyls',
      root,
      state,
    })
    emit(status('starting'))
    emit(status('ready'))
    emit(status('indexing'))
    emit(status('ready'))
    emit(status('starting', '/elsewhere'))
    progress.onProgress({ message: 'walking callers', done: 2, total: 5 })
    emit(status('crashed'))
    progress.dispose()
    emit(status('starting'))
    expect(reports.map((r) => r.message)).toEqual([
      'toyls (app): starting the language server',
      'toyls (app): ready',
      'walking callers (2/5)',
      'toyls (app): the language server crashed',
    ])
    expect(reports.map((r) => r.progress)).toEqual([1, 2, 3, 4])
    await lsp.dispose()
  })

  it('reports each new figure of a project load once, and a crash during it', async () => {
    const lsp = createLsp()
    const { provider, emit } = statusSource()
    lsp.registerProvider(provider)
    const reports: ProgressReport[] = []
    const progress = followCallProgress(lsp, [{ id: 'app', root: '/work/app' }], (r) => reports.push(r))
    const loading = (projectsLoaded: number, filesOpened: number, state: LspProviderStatus['state'] = 'ready'): LspProviderStatus => ({
      providerId: 'toy',
      server: 'toyls',
      root: '/work/app',
      state,
      loading: { projectsLoaded, projectsFound: 3, filesOpened },
    })
    emit(loading(0, 0))
    emit(loading(0, 0))
    emit(loading(1, 1))
    emit({ providerId: 'toy', server: 'toyls', root: '/work/app', state: 'ready', loading: { filesOpened: 1 } })
    emit(loading(1, 1, 'crashed'))
    progress.dispose()
    expect(reports.map((r) => r.message)).toEqual([
      'toyls (app): loading projects 0/3, 0 files opened',
      'toyls (app): loading projects 1/3, 1 file opened',
      'toyls (app): loading 1 file opened',
      'toyls (app): loading projects 1/3, 1 file opened',
      'toyls (app): the language server crashed',
    ])
    await lsp.dispose()
  })
})

describe('progressLine', () => {
  it('redraws one erasable line on a terminal', () => {
    let written = ''
    const line = progressLine({ isTTY: true, write: (t: string) => (written += t) }, { quiet: false })
    line.report({ progress: 1, message: 'typescript (app): starting the language server' })
    line.done()
    // oxlint-disable-next-line no-control-regex -- the progress line is drawn with terminal escapes
    expect(written).toMatch(/^\r\x1b\[2K. typescript \(app\): starting the language server/)
    expect(written.endsWith('\r\x1b[2K')).toBe(true)
  })

  it('prints each message once as a plain line elsewhere, and nothing when quiet', () => {
    let written = ''
    const plain = progressLine({ write: (t: string) => (written += t) }, { quiet: false })
    plain.report({ progress: 1, message: 'a' })
    plain.report({ progress: 2, message: 'a' })
    plain.report({ progress: 3, message: 'b' })
    plain.done()
    expect(written).toBe('codeseam: a\ncodeseam: b\n')
    let quiet = ''
    progressLine({ write: (t: string) => (quiet += t) }, { quiet: true }).report({ progress: 1, message: 'a' })
    expect(quiet).toBe('')
  })
})
