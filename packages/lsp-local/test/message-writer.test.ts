import { PassThrough } from 'node:stream'

import { expect, test } from 'vitest'
import { StreamMessageReader, type Message } from 'vscode-languageserver-protocol/node'

import { messageWriter } from '../src/server/message-writer.js'

test('each message leaves in one write, framed as the library frames it, in order', async () => {
  const pipe = new PassThrough()
  const chunks: Buffer[] = []
  pipe.on('data', (chunk: Buffer) => chunks.push(chunk))
  const writer = messageWriter(pipe)
  const messages: Message[] = [
    { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { text: 'ascii' } } as Message,
    { jsonrpc: '2.0', method: 'textDocument/didChange', params: { text: 'ünïcödé → 𝒳' } } as Message,
    { jsonrpc: '2.0', id: 2, method: 'shutdown' } as Message,
  ]
  await Promise.all(messages.map((message) => writer.write(message)))
  expect(chunks).toHaveLength(messages.length)
  for (const chunk of chunks) {
    const text = chunk.toString('utf8')
    const match = /^Content-Length: (\d+)\r\n\r\n/.exec(text)
    expect(match).not.toBeNull()
    expect(chunk.byteLength - Buffer.byteLength(match![0])).toBe(Number(match![1]))
  }

  // The library's own reader takes them back unchanged.
  const again = new PassThrough()
  const reader = new StreamMessageReader(again)
  const read: Message[] = []
  const done = new Promise<void>((resolve) => {
    reader.listen((message) => {
      read.push(message)
      if (read.length === messages.length) resolve()
    })
  })
  for (const chunk of chunks) again.write(chunk)
  await done
  expect(read).toEqual(messages)
  reader.dispose()
  writer.dispose()
})

test('a write to a closed stream fails the message instead of losing it quietly', async () => {
  const pipe = new PassThrough()
  const writer = messageWriter(pipe)
  pipe.destroy()
  await expect(writer.write({ jsonrpc: '2.0', id: 1, method: 'shutdown' } as Message)).rejects.toBeDefined()
  writer.dispose()
})
