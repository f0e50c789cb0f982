import type { Containment } from '@codeseam/lsp'

/** Where a server's locations may point: one root's containment, or every root a shared server serves (RFC 0025). */
export type LocationScope = Pick<Containment, 'root' | 'output'>

/** The containments of a workspace's roots as one scope: a URI inside any of them is kept, under the root it lies in. */
export function scopeOf(containments: ReadonlyArray<Containment>): LocationScope {
  const [first, ...rest] = containments
  if (first === undefined) throw new Error('scopeOf: no containment')
  if (rest.length === 0) return first
  return {
    root: first.root,
    output: (uri) => {
      for (const containment of containments) {
        const path = containment.output(uri)
        if (path !== undefined) return path
      }
      return undefined
    },
  }
}
