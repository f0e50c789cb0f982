import { describe, expect, it } from 'vitest'

import { WorkspaceRegistry } from '../src/workspace/registry.js'
import type { LocalWorkspace } from '../src/workspace/workspace.js'

describe('WorkspaceRegistry', () => {
  // The registry only keys workspaces by root: a stand-in with a root is all it reads.
  const workspace = { root: '/srv/project' } as LocalWorkspace

  it('finds a workspace by its root however the root is spelled (trailing separator, dot segments)', () => {
    const registry = new WorkspaceRegistry()
    registry.add(workspace, '/home/me/link-to-project/')
    for (const spelling of ['/srv/project', '/srv/project/', '/srv/./project', '/home/me/link-to-project', '/home/me/link-to-project/']) {
      expect(registry.resolve(spelling), spelling).toBe(workspace)
    }
  })

  it('a root nobody opened is UNAVAILABLE, not a guess', () => {
    const registry = new WorkspaceRegistry()
    registry.add(workspace, '/srv/project')
    expect(() => registry.resolve('/srv/other')).toThrow(expect.objectContaining({ code: 'UNAVAILABLE' }))
  })
})
