import { PassThrough, Readable } from 'node:stream'

import { expect, test } from 'vitest'

import { ReadableStreamMessageReader, type Message } from 'vscode-languageserver-protocol/node'

import { ProtocolViolation, StdoutGuard } from '../src/index.js'
import { guardedStream } from '../src/server/stdout-guard.js'

function frame(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8')
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes])
}

/** Pipes chunks through a guard; resolves with the bytes that came out or rejects with its error. */
function run(chunks: Buffer[], limit = 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = []
    const guard = new StdoutGuard(limit)
    guard.on('data', (chunk: Buffer) => out.push(chunk))
    guard.on('end', () => resolve(Buffer.concat(out)))
    guard.on('error', reject)
    Readable.from(chunks).pipe(guard)
  })
}

const messages = Buffer.concat([frame('{"jsonrpc":"2.0","id":1,"result":"é"}'), frame('{"jsonrpc":"2.0","method":"x"}'), frame('')])

test('valid frames pass through unchanged however they are split', async () => {
  for (let cut = 1; cut < messages.length; cut++) {
    const out = await run([messages.subarray(0, cut), messages.subarray(cut)])
    expect(out.equals(messages)).toBe(true)
  }
  const bytewise = await run([...messages].map((b) => Buffer.from([b])))
  expect(bytewise.equals(messages)).toBe(true)
})

test('a message above the byte limit is refused', async () => {
  await expect(run([frame('x'.repeat(2000))], 1024)).rejects.toThrow(/2000-byte message; the limit is 1024/)
})

test('text that is not a protocol header is refused', async () => {
  await expect(run([Buffer.from('Starting server on port 80\n')])).rejects.toBeInstanceOf(ProtocolViolation)
  await expect(run([Buffer.concat([frame('{}'), Buffer.from('[info] ready\n')])])).rejects.toThrow(/not a protocol header/)
})

test('a header without Content-Length, or one that never ends, is refused', async () => {
  await expect(run([Buffer.from('Content-Type: x\r\n\r\n{}')])).rejects.toThrow(/without Content-Length/)
  await expect(run([Buffer.from(`X-Long: ${'a'.repeat(9000)}`)])).rejects.toThrow(/without completing a message header/)
  await expect(run([Buffer.from('Content-Length: 12abc\r\n\r\n')])).rejects.toThrow(/Content-Length/)
})

/** What the host's JSON-RPC reader reads through `guardedStream` from the given chunks. */
function read(chunks: Buffer[], limit = 1024): Promise<{ messages: Message[]; violations: Error[]; errors: unknown[] }> {
  return new Promise((resolve) => {
    const source = new PassThrough()
    const violations: Error[] = []
    const errors: unknown[] = []
    const messages: Message[] = []
    const reader = new ReadableStreamMessageReader(guardedStream(source, limit, (violation) => violations.push(violation)))
    reader.onError((error) => errors.push(error))
    reader.listen((message) => messages.push(message))
    source.on('end', () => setImmediate(() => resolve({ messages, violations, errors })))
    for (const chunk of chunks) source.write(chunk)
    source.end()
  })
}

test('the reader gets every message through guardedStream however the bytes are split', async () => {
  const whole = await read([messages])
  expect(whole.messages).toEqual([
    { jsonrpc: '2.0', id: 1, result: 'é' },
    { jsonrpc: '2.0', method: 'x' },
  ])
  expect(whole.violations).toEqual([])
  for (let cut = 1; cut < messages.length; cut++) {
    const split = await read([messages.subarray(0, cut), messages.subarray(cut)])
    expect(split.messages, `cut at byte ${cut}`).toEqual(whole.messages)
    expect(split.violations).toEqual([])
  }
  const bytewise = await read([...messages].map((b) => Buffer.from([b])))
  expect(bytewise.messages).toEqual(whole.messages)
  // A header block with more than Content-Length passes too.
  const body = '{"jsonrpc":"2.0","method":"y"}'
  const typed = Buffer.from(`Content-Length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`)
  // Whitespace around the length, which the reader itself accepts.
  const spaced = Buffer.from(`Content-Length:  ${body.length} \r\n\r\n${body}`)
  expect((await read([spaced])).messages).toEqual([{ jsonrpc: '2.0', method: 'y' }])
  expect((await read([spaced.subarray(0, 10), spaced.subarray(10)])).violations).toEqual([])
  const both = await read([typed, frame('{"jsonrpc":"2.0","method":"z"}')])
  expect(both.messages).toEqual([
    { jsonrpc: '2.0', method: 'y' },
    { jsonrpc: '2.0', method: 'z' },
  ])
  expect(both.violations).toEqual([])
})

test('guardedStream reports a violation once, to the reader too, and passes nothing after it', async () => {
  const log = Buffer.from('[info] listening\n')
  const after = frame('{"jsonrpc":"2.0","method":"late"}')
  const result = await read([frame('{"jsonrpc":"2.0","method":"early"}'), log, after])
  expect(result.messages).toEqual([{ jsonrpc: '2.0', method: 'early' }])
  expect(result.violations).toHaveLength(1)
  expect(result.violations[0]).toBeInstanceOf(ProtocolViolation)
  expect(result.violations[0]?.message).toMatch(/not a protocol header/)
  expect(result.errors).toHaveLength(1)
  const oversized = await read([frame('x'.repeat(2000))], 1024)
  expect(oversized.violations[0]?.message).toMatch(/2000-byte message; the limit is 1024/)
  expect(oversized.messages).toEqual([])
})
