import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/**
 * Reads one file out of a packed `.tgz` (gzip + POSIX tar, as `pnpm pack` and `npm pack` write it) without a
 * `tar` executable: 512-byte headers, name (with the ustar prefix), octal size, contents padded to 512.
 */
export function readTarballFile(tarball: string, path: string): string | undefined {
  const tar = gunzipSync(readFileSync(tarball))
  let offset = 0
  let longName: string | undefined
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) return undefined
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '')
    const size = Number.parseInt(field(124, 12).trim() || '0', 8)
    const type = field(156, 1)
    const prefix = field(345, 155)
    const name = longName ?? (prefix === '' ? field(0, 100) : `${prefix}/${field(0, 100)}`)
    const body = tar.subarray(offset + 512, offset + 512 + size)
    offset += 512 + Math.ceil(size / 512) * 512
    longName = undefined
    if (type === 'x') {
      // A pax extended header: its `path=` record names the next entry.
      const record = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))
      longName = record?.[1]
      continue
    }
    if ((type === '0' || type === '') && name === path) return body.toString('utf8')
  }
  return undefined
}
