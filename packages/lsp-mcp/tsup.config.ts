import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
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
    },
    esbuildPlugins: [deferSdkAjv],
    // Bundled CommonJS (vscode-jsonrpc, the SDK's dependencies) calls `require` for Node's built-ins.
    banner: {
      js: "import { createRequire as __codeseamCreateRequire } from 'node:module'; const require = __codeseamCreateRequire(import.meta.url);",
    },
    // The tool manifest (dist/tools.json) from the real tool definitions, so `--help` and `tools/list` need no tool loaded.
    async onSuccess() {
      const { writeToolManifest } = (await import(pathToFileURL('dist/tool-manifest-build.js').href)) as {
        writeToolManifest: (dir: URL) => void
      }
      writeToolManifest(pathToFileURL('dist/'))
    },
  },
])
