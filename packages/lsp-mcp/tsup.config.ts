import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { defineConfig, type Options } from 'tsup'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

// Two builds share dist/ and run in parallel, so neither cleans it: it is emptied once, here.
rmSync('dist', { recursive: true, force: true })

/**
 * Packages the bundled CLI leaves to run-time resolution: lsp-local finds them on disk in its own folder. ruff's
 * WebAssembly build reads its `.wasm` file beside its own JS, so it must never be inlined.
 */
const resolvedAtRunTime = ['typescript', 'typescript-native', 'pyright', 'typescript-language-server', '@astral-sh/ruff-wasm-nodejs']

/**
 * The MCP SDK server imports its Ajv provider only to build a default validator; codeseam passes its own, loaded
 * with the tools (src/stdio-server.ts), so the server's own import gets a stub and Ajv leaves the start path.
 */
const deferSdkAjv: Plugin = {
  name: 'codeseam-defer-sdk-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      /@modelcontextprotocol[/\\]sdk[/\\].*[/\\]server[/\\]index\.js$/.test(args.importer)
        ? { path: fileURLToPath(new URL('src/sdk-ajv-stub.ts', import.meta.url)) }
        : undefined,
    )
  },
}

/**
 * esbuild's `charset: 'ascii'` escapes strings, identifiers and templates but leaves a regular expression literal
 * as written (markdown-it has `/([?!])\u2026/`): one such letter makes V8 hold the whole chunk's source as two bytes
 * a character. Every non-ASCII character left is escaped here; `\uXXXX` means the same in a regular expression.
 */
function asciiOnly(dist: URL): void {
  for (const name of readdirSync(dist)) {
    // index.js is the library's (the other build, in parallel): left as its build wrote it.
    if (!name.endsWith('.js') || name === 'index.js') continue
    const file = new URL(name, dist)
    const text = readFileSync(file, 'utf8')
    if (!/[\u0080-\uffff]/.test(text)) continue
    writeFileSync(
      file,
      text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    )
  }
}

/** The commit this build is made from (an unreleased `0.0.0` build is named by it); empty outside a git checkout. */
function buildCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return ''
  }
}
const define = { __CODESEAM_COMMIT__: JSON.stringify(buildCommit()) }

export default defineConfig([
  // The library: its dependencies stay dependencies.
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    // The d.ts step takes minutes on a busy machine; CODESEAM_SKIP_DTS=1 skips it for quick local rebuilds.
    dts: process.env.CODESEAM_SKIP_DTS !== '1',
    clean: false,
    sourcemap: true,
    target: 'node20',
    define,
  },
  // The `codeseam` bin: one bundle with its dependencies, split so the parts a command loads lazily (the
  // tools, effect, the host, the MCP SDK) are chunks of their own and `--help` reads only what it needs.
  {
    entry: { cli: 'src/cli.ts', 'tool-manifest-build': 'src/tool-manifest-build.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: true,
    target: 'node20',
    splitting: true,
    define,
    noExternal: [/.*/],
    external: resolvedAtRunTime,
    platform: 'node',
    // The workspace packages from their sources, module by module (their dists are one file each), so the
    // bundle keeps only what each path uses: `--help` needs LspError, not the seam with effect behind it.
    esbuildOptions(options) {
      options.conditions = ['@codeseam/source']
      // The host keeps every loaded module's source text on its heap (issue 51; docs/performance.md, "Memory of
      // codeseam's own processes"): ASCII only, so no chunk is held as two bytes a character for one non-ASCII
      // letter, and no whitespace or comments. Names stay as written (stack traces, `error.name`); the source maps
      // map the rest back.
      options.charset = 'ascii'
      options.minifyWhitespace = process.env.CODESEAM_KEEP_WHITESPACE !== '1'
    },
    esbuildPlugins: [deferSdkAjv],
    // Bundled CommonJS (vscode-jsonrpc, the SDK's dependencies) calls `require` for Node's built-ins.
    banner: {
      js: "import { createRequire as __codeseamCreateRequire } from 'node:module'; const require = __codeseamCreateRequire(import.meta.url);",
    },
    // The tool manifest (dist/tools.json) from the real tool definitions, so `--help` and `tools/list` need no tool loaded.
    async onSuccess() {
      asciiOnly(new URL('dist/', import.meta.url))
      const { writeToolManifest } = (await import(pathToFileURL('dist/tool-manifest-build.js').href)) as {
        writeToolManifest: (dir: URL) => void
      }
      writeToolManifest(pathToFileURL('dist/'))
    },
  },
])
