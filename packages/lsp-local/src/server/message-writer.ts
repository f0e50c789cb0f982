import { Disposable, WriteableStreamMessageWriter, type MessageWriter, type RAL } from 'vscode-languageserver-protocol/node'

/**
 * vscode-jsonrpc's writer for a server's stdin, with each message sent in one write. The library frames a
 * message as two writes, the header and then the content; on a pipe each write is a system call that wakes
 * the server, which then reads the header alone and waits for the rest. Here the header is held until its
 * content arrives and both go out together. The framing is still the library's: this only joins what it
 * writes. Its writer serialises messages, so a header is always followed by its own content.
 */
export function messageWriter(stream: NodeJS.WritableStream): MessageWriter {
  let header: Buffer | undefined
  const listen = (event: 'close' | 'error' | 'end', listener: (error?: unknown) => void): Disposable => {
    stream.on(event, listener)
    return Disposable.create(() => stream.off(event, listener))
  }
  const writable: RAL.WritableStream = {
    onClose: (listener) => listen('close', listener),
    onError: (listener) => listen('error', listener),
    onEnd: (listener) => listen('end', listener),
    write(data: Uint8Array | string, encoding?: RAL.MessageBufferEncoding): Promise<void> {
      if (typeof data === 'string') {
        header =
          header === undefined ? Buffer.from(data, encoding ?? 'ascii') : Buffer.concat([header, Buffer.from(data, encoding ?? 'ascii')])
        return Promise.resolve()
      }
      const chunk = header === undefined ? data : Buffer.concat([header, data])
      header = undefined
      return new Promise<void>((resolve, reject) => {
        stream.write(chunk, (error?: Error | null) => (error === undefined || error === null ? resolve() : reject(error)))
      })
    },
    end: () => stream.end(),
  }
  return new WriteableStreamMessageWriter(writable)
}
