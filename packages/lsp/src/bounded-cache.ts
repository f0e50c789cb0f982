/**
 * A map that forgets its least recently used entries once it holds more than `limits.entries` of them or
 * more than `limits.size` in all (each entry's size is given when it is set: characters of a text, say). An
 * entry larger than the whole budget is not kept. The limits are read at every `set`, so a caller may lower
 * them at run time. Shared by the caches that keep text: the seam's line tables, lsp-local's file reads.
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, { readonly value: V; readonly size: number }>()
  private total = 0

  constructor(private readonly limits: { readonly entries: number; readonly size: number }) {}

  /** The value for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const entry = this.map.get(key)
    if (entry === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, entry)
    return entry.value
  }

  /** Keeps `value` as the most recently used, then drops the least recently used beyond the limits. */
  set(key: K, value: V, size: number): void {
    this.delete(key)
    if (size > this.limits.size) return
    this.map.set(key, { value, size })
    this.total += size
    while (this.map.size > this.limits.entries || this.total > this.limits.size) {
      const [oldest] = this.map.keys()
      this.delete(oldest as K)
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key)
    if (entry === undefined) return
    this.map.delete(key)
    this.total -= entry.size
  }

  clear(): void {
    this.map.clear()
    this.total = 0
  }
}
