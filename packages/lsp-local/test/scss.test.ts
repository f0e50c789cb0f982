import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspDocumentSymbol, type LspPosition } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { createLocalHost, type LocalHost } from '../src/index.js'

/*
 * SCSS (issue 49): `.scss` moved from the CSS record (vscode-css-language-server, one file at a time) to the SCSS
 * record (some-sass-language-server), which follows `@use` and `@forward` across files. What the CSS record answered
 * for an SCSS file — lint diagnostics, outline, hover, formatting — is still answered: the first three by some-sass's
 * own copy of the CSS language service, formatting by the CSS server beside it (its companion). `.css` and `.less`
 * stay the CSS record's.
 */

/** The same stylesheet as CSS and as SCSS: an unknown property, two rules, a line to format. */
const sheet = '.card {\n  colr: red;\n  margin: 0 auto;\n}\n\n.footer {\n    padding:4px;\n}\n'

const files: Readonly<Record<string, string>> = {
  'styles/_tokens.scss': '$brand: #336699;\n\n@mixin raised {\n  box-shadow: 0 1px 2px black;\n}\n',
  'styles/_theme.scss': "@forward 'tokens' as theme-*;\n",
  'styles/site.scss': "@use 'tokens' as tk;\n@use 'theme';\n\n.header {\n  color: tk.$brand;\n  @include theme.theme-raised;\n}\n",
  'same.scss': sheet,
  'same.css': sheet,
  'plain.less': '@width: 10px;\n.box { width: @width; }\n',
}

function workspace(): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-scss-')))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, file)), { recursive: true })
    writeFileSync(nodePath.join(root, file), text)
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

/** The position of `at` inside the only occurrence of `text` in `file` (found by text, never counted by hand). */
function positionOf(file: string, text: string, at: string = text): LspPosition {
  const content = files[file]!
  const index = content.indexOf(text)
  if (index < 0 || content.indexOf(text, index + 1) >= 0) throw new Error(`${text} must occur once in ${file}`)
  const offset = index + text.indexOf(at)
  const before = content.slice(0, offset).split('\n')
  return { line: before.length - 1, character: before.at(-1)!.length }
}

const names = (symbols: ReadonlyArray<LspDocumentSymbol>): unknown =>
  symbols.map((s) => (s.children.length === 0 ? s.name : { [s.name]: names(s.children) }))

describe('SCSS by some-sass-language-server, CSS and Less by the CSS server', () => {
  let host: LocalHost
  const lsp = createLsp()
  let ws: { root: string; remove: () => void }
  beforeAll(async () => {
    ws = workspace()
    host = await createLocalHost()
    await host.attach(lsp, [{ root: ws.root }])
  })
  afterAll(async () => {
    await lsp.dispose()
    await host.dispose()
    ws.remove()
  })
  const at = (file: string) => nodePath.join(ws.root, file)

  test('routing: `.scss` to the SCSS record, `.css` and `.less` to the CSS record', () => {
    expect(lsp.providerFor(at('styles/site.scss'))).toMatchObject({ providerId: 'local:scss', languageId: 'scss' })
    expect(lsp.providerFor(at('same.css'))).toMatchObject({ providerId: 'local:css', languageId: 'css' })
    expect(lsp.providerFor(at('plain.less'))).toMatchObject({ providerId: 'local:css', languageId: 'less' })
  })

  test('definition across files through `@use … as` and through `@forward … as theme-*`', { timeout: 60_000 }, async () => {
    const target = async (text: string, name: string) => {
      const answer = await lsp.query({
        operation: 'definition',
        root: ws.root,
        path: at('styles/site.scss'),
        position: positionOf('styles/site.scss', text, name),
      })
      return answer.locations.map((l) => [nodePath.relative(ws.root, l.path), l.range.start.line])
    }
    expect(await target('tk.$brand', '$brand')).toEqual([['styles/_tokens.scss', positionOf('styles/_tokens.scss', '$brand').line]])
    expect(await target('theme.theme-raised', 'theme-raised')).toEqual([
      ['styles/_tokens.scss', positionOf('styles/_tokens.scss', '@mixin raised').line],
    ])
  })

  test('what the CSS server answers for a stylesheet, an SCSS file still gets', { timeout: 60_000 }, async () => {
    const answers = async (file: string) => {
      const path = at(file)
      const diagnostics = await lsp.query({ operation: 'diagnostics', root: ws.root, path })
      const outline = await lsp.query({ operation: 'documentSymbols', root: ws.root, path })
      const hover = await lsp.query({ operation: 'hover', root: ws.root, path, position: positionOf(file, 'margin: 0 auto', 'margin') })
      const format = await lsp.query({ operation: 'format', root: ws.root, path })
      return {
        providerId: outline.meta.providerId,
        lint: diagnostics.files.flatMap((f) => f.diagnostics).map((d) => [d.range.start.line, d.message]),
        outline: names(outline.symbols),
        hover: hover.hover?.contents.includes('thickness of the margin area'),
        format: format.edit.operations.length,
      }
    }
    const css = await answers('same.css')
    const scss = await answers('same.scss')
    expect(css).toMatchObject({ providerId: 'local:css', hover: true })
    expect(css.lint).toContainEqual([positionOf('same.css', 'colr').line, expect.stringContaining('colr')])
    expect(css.format).toBeGreaterThan(0)
    expect(scss).toEqual({ ...css, providerId: 'local:scss' })
  })
})

test('with the CSS record turned off, SCSS files are still served, without formatting', { timeout: 60_000 }, async () => {
  const ws = workspace()
  const host = await createLocalHost({ profiles: [{ id: 'css', enabled: false }] })
  const lsp = createLsp()
  try {
    await host.attach(lsp, [{ root: ws.root }])
    const path = nodePath.join(ws.root, 'same.scss')
    await expect(lsp.query({ operation: 'format', root: ws.root, path })).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' })
    const outline = await lsp.query({ operation: 'documentSymbols', root: ws.root, path })
    expect(names(outline.symbols)).toEqual(['.card', '.footer'])
  } finally {
    await lsp.dispose()
    await host.dispose()
    ws.remove()
  }
})
