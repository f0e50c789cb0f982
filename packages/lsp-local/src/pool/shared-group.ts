import { isWithin } from '@codeseam/lsp'

import { recordFor } from '../languages/index.js'
import type { ServerProfile } from '../profile/profiles.js'
import { worktreesOfOneRepository } from '../workspace/worktrees.js'
import type { LocalWorkspace } from '../workspace/workspace.js'

/**
 * The roots one server serves for a request (RFC 0025), sorted so every session with the same roots finds the
 * same slot: the request's workspace and the other open roots of its workspace at the same trust, when the
 * profile's record shares roots, its server runs at the workspace root, no root lies inside another (a nested
 * root is already served by its parent's server) and no two are worktrees of one repository. Undefined: the
 * workspace's own server.
 */
export function sharedGroup(workspace: LocalWorkspace, profile: ServerProfile, group: ReadonlyArray<LocalWorkspace>): string[] | undefined {
  if (group.length === 0 || recordFor(profile)?.sharesRoots !== true || profile.projectRoot === 'nearest') return undefined
  const roots = [...new Set([workspace.root, ...group.filter((other) => other.trust === workspace.trust).map((other) => other.root)])]
  if (roots.length < 2) return undefined
  if (roots.some((root) => roots.some((other) => other !== root && isWithin(other, root)))) return undefined
  // Worktrees of one repository hold other versions of the same files: each keeps its own server.
  if (worktreesOfOneRepository(roots)) return undefined
  return roots.sort()
}
