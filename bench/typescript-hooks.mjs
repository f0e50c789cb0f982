// Module hooks: workspace packages resolve to their `src` through the `@codeseam/source` export condition,
// `./x.js` specifiers written in TypeScript sources find `./x.ts`, and `.ts` files are transpiled with the
// repository's own TypeScript (transpile only: type-checking is `pnpm typecheck`'s job).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
/** @type {typeof import('typescript') | undefined} */
let ts

export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes('@codeseam/source') ? context.conditions : [...context.conditions, '@codeseam/source']
  const parent = context.parentURL ?? ''
  if (parent.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), parent)
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true }
  }
  return nextResolve(specifier, { ...context, conditions })
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.(m|c)?ts$/.test(url)) return nextLoad(url, context)
  ts ??= require('typescript')
  const path = fileURLToPath(url)
  const source = await readFile(path, 'utf8')
  const output = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
      inlineSources: true,
    },
  })
  return { format: 'module', source: output.outputText, shortCircuit: true }
}
