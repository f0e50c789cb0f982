import { defineConfig, type Options } from 'tsup'

/**
 * How a library package builds (as tsconfig.base.json is how it type-checks): its ESM entry with type declarations
 * and source maps, for Node.js 20; `options` add to it or replace a part (another entry, an external module).
 */
export function libraryBuild(options: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...options,
  })
}
