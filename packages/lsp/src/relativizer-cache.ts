import { textRelativizer, type TextRelativizer } from './relative-text.js'

/** Relativizers kept per root (the canonical path costs a system call); bounded, oldest dropped first. */
const maxRelativizers = 64

/** The relativizer of each root a service has answered for, made on first use. */
export class RelativizerCache {
  readonly #byRoot = new Map<string, TextRelativizer>()

  /** The relativizer for `root`, from the cache or made now. */
  for(root: string): TextRelativizer {
    let relativizer = this.#byRoot.get(root)
    if (relativizer === undefined) {
      relativizer = textRelativizer(root)
      if (this.#byRoot.size >= maxRelativizers) this.#byRoot.delete(this.#byRoot.keys().next().value as string)
      this.#byRoot.set(root, relativizer)
    }
    return relativizer
  }
}
