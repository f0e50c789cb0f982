/**
 * The per-workspace mutation queue of one process: mutations of the same root run one at a time, in the
 * order they arrived; different roots and every read run concurrently (reads never enter the queue).
 */

/** Serializes async work per key (a canonical workspace root). */
export class MutationQueue {
  private readonly tails = new Map<string, Promise<void>>()
  private readonly depths = new Map<string, number>()

  /** Runs `work` after every earlier task of `root` has settled; a failed task does not block the next. */
  run<T>(root: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(root) ?? Promise.resolve()
    this.depths.set(root, (this.depths.get(root) ?? 0) + 1)
    const result = previous.then(work)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.tails.set(root, tail)
    void tail.then(() => {
      const depth = (this.depths.get(root) ?? 1) - 1
      if (depth === 0) {
        this.depths.delete(root)
        if (this.tails.get(root) === tail) this.tails.delete(root)
      } else this.depths.set(root, depth)
    })
    return result
  }

  /** Mutations queued or running for `root`. */
  pending(root: string): number {
    return this.depths.get(root) ?? 0
  }
}
