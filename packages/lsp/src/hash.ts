import { createHash } from 'node:crypto'

/** The content hash used across the seam: sha-256 of the UTF-8 text, hex. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
