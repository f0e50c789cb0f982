// Lets Node 20 run the benchmark and the workspace packages straight from their TypeScript sources (no
// build step, no tsx): `node --import ./register.mjs src/main.ts`. See typescript-hooks.mjs.
import { register } from 'node:module'

register('./typescript-hooks.mjs', import.meta.url)
