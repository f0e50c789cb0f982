import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * A `require` that resolves from @codeseam/lsp-local's own folder, wherever this code runs. The language
 * servers (typescript, typescript-native, typescript-language-server, pyright) are this package's
 * dependencies, and under pnpm's isolated layout only this package's folder sees them. When this module is
 * bundled into another package (the `codeseam` CLI bundle in @codeseam/lsp-mcp's dist), `import.meta.url`
 * is that bundle's file, so a plain `createRequire(import.meta.url)` would look in the wrong node_modules.
 * Resolving our own package.json by self-reference (the package exports `./package.json`) finds this
 * package's folder both from its own dist and from a dependent's bundle; when that fails (an unusual
 * layout), the module's own location is the fallback.
 */
function ownRequire(): NodeRequire {
  const local = createRequire(import.meta.url)
  try {
    // Real path: resolution from the link (packages/lsp-mcp/node_modules/@codeseam/lsp-local) would look for the
    // servers beside the link, where pnpm put none (seen in the shared daemon on the polyglot machines).
    return createRequire(realpathSync(local.resolve('@codeseam/lsp-local/package.json')))
  } catch {
    return local
  }
}

let cached: NodeRequire | undefined

/** The `require` of @codeseam/lsp-local's own package folder (see above); created once. */
export function ownPackageRequire(): NodeRequire {
  cached ??= ownRequire()
  return cached
}
