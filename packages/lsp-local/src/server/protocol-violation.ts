/** Why the guard stopped a server's output. Treated as a crash by the caller. */
export class ProtocolViolation extends Error {
  override readonly name = 'ProtocolViolation'
}
