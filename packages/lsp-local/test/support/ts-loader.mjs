// A Node module loader that runs this repository's TypeScript sources in a plain child process (tests
// that need a separate host process: the watchdog test SIGKILLs one). Transpile-only, via the package's
// own TypeScript 6. Use: node --conditions=@codeseam/source --import ./register.mjs script.ts
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ts = require('typescript')

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context)
  } catch (error) {
    if (specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('/'))) {
      return next(specifier.slice(0, -3) + '.ts', context)
    }
    throw error
  }
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context)
  const source = await readFile(fileURLToPath(url), 'utf8')
  const { outputText } = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  })
  return { format: 'module', source: outputText, shortCircuit: true }
}
