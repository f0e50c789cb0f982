// The resolve hook of register.mjs (runs on Node's loader thread).
import { appendFileSync } from 'node:fs'

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  const log = process.env.CODESEAM_MODULE_LOG
  if (log && result.url.startsWith('file:')) appendFileSync(log, `${process.pid} ${result.url}\n`)
  return result
}
