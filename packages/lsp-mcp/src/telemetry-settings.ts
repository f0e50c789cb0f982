/**
 * Whether this process exports OpenTelemetry traces and metrics, decided from `--otel-endpoint`,
 * `--otel-include-paths` and the standard `OTEL_*` variables, without loading any of the SDK (that happens in
 * telemetry-export.ts, only when export is on). The daemon key (daemon/runtime-dir.ts) reads the same
 * decision, so a relay with export on never joins a daemon with export off or another endpoint.
 */

/** The telemetry flags of a command line. */
export interface OtelFlags {
  /** `--otel-endpoint URL`: the collector's OTLP/HTTP base URL (`/v1/traces` and `/v1/metrics` are appended). */
  readonly endpoint?: string
  /** `--otel-include-paths`: spans carry workspace-relative paths, root ids and symbol names. */
  readonly includePaths?: boolean
}

/** Variables naming where to export; one of them (or `--otel-endpoint`) turns export on. */
export const otelEndpointVariables = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
] as const

const set = (env: NodeJS.ProcessEnv, name: string): boolean => (env[name] ?? '').trim() !== ''

/** `--otel-endpoint`'s text as a URL, or why not (a usage error's message). */
export function checkOtelEndpoint(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return `--otel-endpoint must be an http:// or https:// URL (the collector's OTLP/HTTP base, e.g. http://localhost:4318), got "${text}"`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `--otel-endpoint must be an http:// or https:// URL (the collector's OTLP/HTTP base, e.g. http://localhost:4318), got "${text}"`
  }
  return undefined
}

/** Which signals go out: traces and metrics each need an endpoint (the flag, the generic variable, or their own). */
export interface OtelSignals {
  readonly traces: boolean
  readonly metrics: boolean
}

/**
 * The signals this process exports, or undefined when export is off: no `--otel-endpoint` and no
 * `OTEL_EXPORTER_OTLP_*ENDPOINT`, or `OTEL_SDK_DISABLED=true`. `OTEL_TRACES_EXPORTER=none` /
 * `OTEL_METRICS_EXPORTER=none` leave one signal out.
 */
export function otelSignals(flags: OtelFlags, env: NodeJS.ProcessEnv = process.env): OtelSignals | undefined {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return undefined
  const generic = flags.endpoint !== undefined || set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  const none = (name: string) => (env[name] ?? '').trim().toLowerCase() === 'none'
  const traces = (generic || set(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) && !none('OTEL_TRACES_EXPORTER')
  const metrics = (generic || set(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT')) && !none('OTEL_METRICS_EXPORTER')
  return traces || metrics ? { traces, metrics } : undefined
}

/**
 * What identifies this process's export, for the daemon key: undefined when export is off, else the flags
 * and the value of every `OTEL_*` variable (endpoints, headers, timeouts, intervals, service name, resource
 * attributes). The key is a hash, so header values (tokens) never appear in it.
 */
export function otelKeyMaterial(flags: OtelFlags, env: NodeJS.ProcessEnv = process.env): object | undefined {
  if (otelSignals(flags, env) === undefined) return undefined
  const names = Object.keys(env)
    .filter((name) => name.startsWith('OTEL_'))
    .sort()
  return {
    endpoint: flags.endpoint ?? null,
    includePaths: flags.includePaths === true,
    env: Object.fromEntries(names.map((name) => [name, env[name] ?? null])),
  }
}

/** The flags that pass these settings on to a daemon this process starts. */
export function otelArguments(flags: OtelFlags): string[] {
  return [
    ...(flags.endpoint === undefined ? [] : ['--otel-endpoint', flags.endpoint]),
    ...(flags.includePaths === true ? ['--otel-include-paths'] : []),
  ]
}
