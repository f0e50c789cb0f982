import { PassThrough, Readable } from 'node:stream'

import { expect, test } from 'vitest'

import { ReadableStreamMessageReader, type Message } from 'vscode-languageserver-protocol/node'

import { ProtocolViolation, StdoutGuard } from '../src/index.js'
import { droppedAnswerError, GuardedMessageReader, guardedStream } from '../src/server/guarded-stream.js'
import type { DroppedAnswer } from '../src/server/dropped-answer.js'

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
    const reader = new ReadableStreamMessageReader(guardedStream(source, limit, { violation: (violation) => violations.push(violation) }))
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

/** What the host's reader delivers, answers over the limit dropped and replaced by their error, as connect() wires it. */
function readDropping(chunks: Buffer[], limit = 1024): Promise<{ messages: Message[]; dropped: DroppedAnswer[]; violations: Error[] }> {
  return new Promise((resolve) => {
    const source = new PassThrough()
    const violations: Error[] = []
    const messages: Message[] = []
    const dropped: DroppedAnswer[] = []
    const reader: GuardedMessageReader = new GuardedMessageReader(
      guardedStream(source, limit, {
        violation: (violation) => violations.push(violation),
        droppedAnswer: (answer) => {
          dropped.push(answer)
          reader.insert(droppedAnswerError(answer, limit), answer.after)
        },
      }),
    )
    reader.listen((message) => messages.push(message))
    // The reader decodes on promises: let them run before reading the result.
    source.on('end', () => setImmediate(() => setImmediate(() => resolve({ messages, dropped, violations }))))
    for (const chunk of chunks) source.write(chunk)
    source.end()
  })
}

/** A response body of exactly `bytes` bytes, padded with JSON whitespace. */
function bigAnswer(head: string, bytes: number): string {
  return head + ' '.repeat(bytes - head.length - 1) + '}'
}

test('an answer over the limit is dropped unread and replaced by an error answer, in order, however the bytes are split', async () => {
  const early = frame('{"jsonrpc":"2.0","method":"early"}')
  const late = frame('{"jsonrpc":"2.0","id":8,"result":"late"}')
  const stream = Buffer.concat([early, frame(bigAnswer('{"jsonrpc":"2.0","id":7,"result":null', 2000)), late])
  const expected = [
    { jsonrpc: '2.0', method: 'early' },
    {
      jsonrpc: '2.0',
      id: 7,
      error: expect.objectContaining({ code: -32099, data: { codeseam: 'answer-over-limit', bytes: 2000, limit: 1024 } }),
    },
    { jsonrpc: '2.0', id: 8, result: 'late' },
  ]
  const whole = await readDropping([stream])
  expect(whole.violations).toEqual([])
  expect(whole.dropped).toEqual([{ id: 7, bytes: 2000, after: 1 }])
  expect(whole.messages).toEqual(expected)
  for (const cut of [
    1,
    early.length - 3,
    early.length + 5,
    early.length + 30,
    early.length + 1500,
    stream.length - late.length - 1,
    stream.length - 2,
  ]) {
    const split = await readDropping([stream.subarray(0, cut), stream.subarray(cut)])
    expect(split.violations, `cut at byte ${cut}`).toEqual([])
    expect(split.messages, `cut at byte ${cut}`).toEqual(expected)
  }
  const bytewise = await readDropping([...stream].map((b) => Buffer.from([b])))
  expect(bytewise.messages).toEqual(expected)
})

test('answers are recognised with the id first or last (clangd sorts its keys, gopls writes the id last), string ids too', async () => {
  // Each body is 1500 bytes, its bulk where a real answer's is: inside the result or the error.
  const bulk = (bytes: number) => ' '.repeat(bytes)
  const shapes: Array<[(fill: string) => string, number | string]> = [
    [(fill) => `{"id":"q-1","jsonrpc":"2.0","result":[${fill}]}`, 'q-1'],
    [(fill) => `{"error":{"code":1,"message":"x${fill}"},"id":12,"jsonrpc":"2.0"}`, 12],
    [(fill) => `{"jsonrpc":"2.0","result":[${fill}],"id":5}`, 5],
    [(fill) => `{ "jsonrpc": "2.0", "id": "a\\"b", "result": [${fill}] }`, 'a"b'],
  ]
  for (const [shape, id] of shapes) {
    const body = shape(bulk(1500 - shape('').length))
    const result = await readDropping([frame(body)])
    expect(result.violations, body.slice(0, 40)).toEqual([])
    expect(result.dropped, body.slice(0, 40)).toEqual([{ id, bytes: 1500, after: 0 }])
  }
})

test('over the limit, what is not an answer still breaks the stream: requests, notifications, no id, garbage lengths', async () => {
  const pad = (head: string, tail = '}') => head + ' '.repeat(1500 - head.length - tail.length) + tail
  const cases: Array<[string, Buffer, RegExp]> = [
    [
      'notification',
      frame(pad('{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{', '}}')),
      /not an answer to a request/,
    ],
    [
      'server request',
      frame(pad('{"jsonrpc":"2.0","id":3,"method":"workspace/configuration","params":{', '}}')),
      /not an answer to a request/,
    ],
    ['id last but missing', frame(pad('{"jsonrpc":"2.0","result":[', ']}')), /no request id where an answer ends/],
    ['not one JSON object', frame(pad('{"jsonrpc":"2.0","id":4,"result":[', ']')), /does not end like a JSON object/],
    ['invalid id', frame(pad('{"jsonrpc":"2.0","id":"\\x","result":[', ']}')), /request id .* is not valid JSON/],
    [
      '16 times the limit and more',
      Buffer.from('Content-Length: 2147483648\r\n\r\n{"jsonrpc":"2.0","id":1,"result":['),
      /2147483648-byte message/,
    ],
    [
      'beyond a safe integer',
      Buffer.from('Content-Length: 99999999999999999999999\r\n\r\n{"jsonrpc":"2.0","id":1,"result":['),
      /Content-Length/,
    ],
  ]
  for (const [what, bytes, message] of cases) {
    const result = await readDropping([bytes])
    expect(result.dropped, what).toEqual([])
    expect(result.messages, what).toEqual([])
    expect(result.violations[0]?.message, what).toMatch(message)
  }
})

test('StdoutGuard passes a split or unfinished header on at once, unchanged', async () => {
  const unfinished = Buffer.concat([frame('{}'), Buffer.from('Content-Len')])
  expect((await run([unfinished])).equals(unfinished)).toBe(true)
})

test('a header that promises an answer over the limit and then stops is a violation once the stall deadline passes', async () => {
  const source = new PassThrough()
  const violation = new Promise<Error>((resolve) => {
    const stream = guardedStream(source, 1024, { violation: resolve, droppedAnswer: () => {}, stallMs: 50 })
    stream.onData(() => {})
  })
  source.write(Buffer.from('Content-Length: 4000\r\n\r\n{"jsonrpc":"2.0"'))
  expect((await violation).message).toMatch(/stopped writing for 50 ms in the middle of an answer/)
  source.end()
})
