import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  // The d.ts step takes minutes on a busy machine; CODESEAM_SKIP_DTS=1 skips it for quick local rebuilds.
  dts: process.env.CODESEAM_SKIP_DTS !== '1',
  clean: true,
  sourcemap: true,
  target: 'node20',
})
