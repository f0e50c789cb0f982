import { expect, it } from 'vitest'

import { generateToolsDoc } from '../scripts/gen-docs.js'

// Runs every documented example against the real servers and compares with the committed docs.
// Regenerate with: npx vitest run test/docs.test.ts -u
it('docs/tools.md matches what the tools answer today', { timeout: 180_000 }, async () => {
  const markdown = await generateToolsDoc()
  await expect(markdown).toMatchFileSnapshot('../../../docs/tools.md')
})
