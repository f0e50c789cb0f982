import { defineConfig } from 'tsup'

// VS Code loads extensions as CommonJS and provides `vscode` itself; everything else is bundled so the
// extension folder works without node_modules.
export default defineConfig({
  entry: { extension: 'src/extension.ts' },
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  noExternal: [/^(?!vscode$)/],
  esbuildOptions(options) {
    options.conditions = ['@codeseam/source']
  },
  clean: true,
  sourcemap: true,
})
