import { Readable } from 'node:stream'

import { expect, test } from 'vitest'

import { ProtocolViolation, StdoutGuard } from '../src/index.js'

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
