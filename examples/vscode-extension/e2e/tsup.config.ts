import { defineConfig } from 'tsup'

// Bundled as CommonJS (how VS Code loads extensions), `vscode` external. The seam's testing module reads
// `import.meta.url`, which CommonJS lacks: it is defined from the bundle's own file name.
export default defineConfig({
  entry: { extension: 'e2e/conformance-extension.ts' },
  outDir: process.env.CODESEAM_E2E_OUT ?? 'e2e/dist',
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  noExternal: [/^(?!vscode$)/],
  banner: { js: "const __codeseamImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  esbuildOptions(options) {
    options.conditions = ['@codeseam/source']
    options.define = { ...options.define, 'import.meta.url': '__codeseamImportMetaUrl' }
  },
  clean: true,
})
