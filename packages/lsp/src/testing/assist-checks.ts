import { bare, check, expect, find } from './check-kit.js'

// Checks of what a provider shows beside the code: hover, signature help, completion and inlay hints.

export const hoverCheck = check({
  id: 'hover',
  name: 'hover shows the declared type',
  needs: ['hover'],
  uses: ['hover'],
  async run({ fixture, root, query }, { hover }) {
    const at = await find(fixture, hover.at)
    const result = await query({ operation: 'hover', root, path: at.path, position: at.position })
    const contents = result.hover?.contents
    expect(contents !== undefined, 'hover is null')
    const missing = hover.includes.filter((text) => !contents.includes(text))
    expect(missing.length === 0, `hover lacks ${missing.join(', ')}: ${JSON.stringify(contents)}`)
    return contents.split('\n').find((line) => line.includes(hover.includes[0] ?? '')) ?? ''
  },
})

export const hoverNonAsciiCheck = check({
  id: 'hoverNonAscii',
  name: 'hover on a non-ASCII identifier',
  needs: ['hover'],
  uses: ['nonAscii'],
  async run({ fixture, root, query }, { nonAscii }) {
    const at = await find(fixture, nonAscii.use)
    const result = await query({ operation: 'hover', root, path: at.path, position: at.position })
    expect(
      result.hover?.contents.includes(nonAscii.name),
      `hover does not name ${nonAscii.name}: ${JSON.stringify(result.hover?.contents)}`,
    )
    return 'ok'
  },
})

export const signatureHelpCheck = check({
  id: 'signatureHelp',
  name: 'signature help inside a call',
  needs: ['signatureHelp'],
  uses: ['signatureHelp'],
  async run({ fixture, root, query }, { signatureHelp }) {
    const at = await find(fixture, signatureHelp.at)
    const result = await query({ operation: 'signatureHelp', root, path: at.path, position: at.position })
    const active = result.signatureHelp?.signatures[result.signatureHelp.activeSignature]
    expect(
      active !== undefined && active.label.includes(signatureHelp.label),
      `no signature naming "${signatureHelp.label}": ${JSON.stringify(result.signatureHelp)}`,
    )
    return active.label
  },
})

export const completionCheck = check({
  id: 'completion',
  name: 'completion lists the members',
  needs: ['completion'],
  uses: ['completion'],
  async run({ fixture, root, query }, { completion }) {
    const at = await find(fixture, completion.at)
    const result = await query({ operation: 'completion', root, path: at.path, position: at.position })
    const labels = new Set(result.items.map((i) => bare(i.label)))
    const missing = completion.labels.filter((label) => !labels.has(label))
    expect(missing.length === 0, `${missing.join(' and ')} not among ${result.items.length} items`)
    return `${result.items.length} items`
  },
})

export const inlayHintsCheck = check({
  id: 'inlayHints',
  name: 'inlay hints are positioned inside the document',
  needs: ['inlayHints'],
  uses: ['inlayHints'],
  async run({ fixture, root, query }, { inlayHints }) {
    const result = await query({ operation: 'inlayHints', root, path: fixture.path(inlayHints.file) })
    const lineCount = (await fixture.text(inlayHints.file)).split('\n').length
    for (const hint of result.hints) expect(hint.position.line < lineCount, `hint outside the document: ${JSON.stringify(hint)}`)
    return `${result.hints.length} hints`
  },
})
