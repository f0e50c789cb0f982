import { describe, expect, it } from 'vitest'

import { checkOtelEndpoint, otelArguments, otelSignals } from '../src/telemetry-settings.js'
import { startTelemetryExport } from '../src/telemetry-export.js'

// When export is on, and which signals go out: decided without loading the SDK.

describe('otelSignals', () => {
  it('is off without an endpoint, on with the flag or a standard variable, and off under OTEL_SDK_DISABLED=true', () => {
    expect(otelSignals({}, {})).toBeUndefined()
    expect(otelSignals({ includePaths: true }, {})).toBeUndefined()
    expect(otelSignals({ endpoint: 'http://c:4318' }, {})).toEqual({ traces: true, metrics: true })
    expect(otelSignals({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({ traces: true, metrics: true })
    expect(otelSignals({}, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toEqual({ traces: true, metrics: false })
    expect(otelSignals({}, { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://c:4318/v1/metrics' })).toEqual({ traces: false, metrics: true })
    expect(otelSignals({}, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined()
    expect(otelSignals({ endpoint: 'http://c:4318' }, { OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined()
    expect(otelSignals({ endpoint: 'http://c:4318' }, { OTEL_SDK_DISABLED: 'false' })).toEqual({ traces: true, metrics: true })
    expect(otelSignals({ endpoint: 'http://c:4318' }, { OTEL_METRICS_EXPORTER: 'none' })).toEqual({ traces: true, metrics: false })
    expect(otelSignals({ endpoint: 'http://c:4318' }, { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined()
  })

  it('checks the endpoint and passes the flags on to a daemon', () => {
    expect(checkOtelEndpoint('http://localhost:4318')).toBeUndefined()
    expect(checkOtelEndpoint('https://collector.example/otlp')).toBeUndefined()
    expect(checkOtelEndpoint('grpc://localhost:4317')).toMatch(/must be an http:\/\/ or https:\/\/ URL/)
    expect(otelArguments({})).toEqual([])
    expect(otelArguments({ endpoint: 'http://c:4318', includePaths: true })).toEqual([
      '--otel-endpoint',
      'http://c:4318',
      '--otel-include-paths',
    ])
  })

  it('startTelemetryExport is undefined when export is off', async () => {
    expect(await startTelemetryExport({ env: {} })).toBeUndefined()
    expect(await startTelemetryExport({ endpoint: 'http://c:4318', env: { OTEL_SDK_DISABLED: 'true' } })).toBeUndefined()
  })
})
