/*
 * Small helpers the trust rules share: deep-merging settings and dropping command-line flags.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Deep merge where `over` wins; arrays and scalars replace. */
export function mergeSettings(base: unknown, over: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = isRecord(base) ? { ...base } : {}
  for (const [key, value] of Object.entries(over)) out[key] = isRecord(value) && isRecord(out[key]) ? mergeSettings(out[key], value) : value
  return out
}

/** Drops `--flag value` / `--flag=value` (one or two dashes) from an argument list. */
export function dropFlag(args: ReadonlyArray<string>, flag: string): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const name = arg.replace(/^--?/, '').split('=')[0]
    if (arg.startsWith('-') && name === flag) {
      if (!arg.includes('=')) i++
      continue
    }
    out.push(arg)
  }
  return out
}

/**
 * Proxy variables (both cases: Go's net/http and Rust's reqwest read them) naming the discard port on loopback:
 * every HTTP(S) request a server makes by itself fails at once, so it downloads nothing (taplo's schema catalog,
 * buf's remote dependencies).
 */
export const offlineProxy: Readonly<Record<string, string>> = Object.fromEntries(
  ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'].map((name) => [name, 'http://127.0.0.1:9']),
)
