import type { ConformanceFixture } from './fixture-record.js'
import type { FixtureWorkspace } from './fixture.js'
import { check, covers, expect, find, textEdits, type CheckContext } from './check-kit.js'

// Checks that a provider computes edits, and never writes them: rename, format and code actions.

export const prepareRenameCheck = check({
  id: 'prepareRename',
  name: 'prepareRename accepts a symbol and refuses a keyword',
  needs: ['prepareRename'],
  uses: ['rename', 'keyword'],
  async run({ fixture, root, query }, { rename, keyword }) {
    const at = await find(fixture, rename.symbol)
    const ok = await query({ operation: 'prepareRename', root, path: at.path, position: at.position })
    expect(
      ok.rename.canRename && ok.rename.placeholder === rename.name,
      `expected canRename with placeholder ${rename.name}: ${JSON.stringify(ok.rename)}`,
    )
    const word = await find(fixture, keyword)
    const refused = await query({ operation: 'prepareRename', root, path: word.path, position: word.position })
    expect(
      !refused.rename.canRename && refused.rename.reason.length > 0,
      `a keyword (${word.where}) should not be renameable: ${JSON.stringify(refused.rename)}`,
    )
    return `refused with: ${refused.rename.reason}`
  },
})

export const renameCheck = check({
  id: 'rename',
  name: 'rename touches every file that uses the symbol, and writes nothing',
  needs: ['rename'],
  uses: ['rename'],
  async run({ fixture, root, query }, { rename }) {
    const at = await find(fixture, rename.symbol)
    const sites = await fixture.occurrences(rename.name)
    const files = [...new Set(sites.map((s) => s.path))]
    const before = await Promise.all(files.map((file) => fixture.text(file.slice(root.length + 1))))
    const result = await query({ operation: 'rename', root, path: at.path, position: at.position, newName: rename.newName })
    const edits = textEdits(result.edit.operations)
    for (const site of sites) {
      expect(
        edits.some(
          (e) => e.path === site.path && e.edit.range.start.line === site.position.line && e.edit.newText.includes(rename.newName),
        ),
        `no edit at ${site.path.slice(root.length + 1)}:${site.position.line + 1}`,
      )
    }
    const after = await Promise.all(files.map((file) => fixture.text(file.slice(root.length + 1))))
    expect(
      after.every((text, index) => text === before[index]),
      'rename must only compute an edit, not write it',
    )
    return `${edits.length} edits in ${new Set(edits.map((e) => e.path)).size} files`
  },
})

export const formatCheck = check({
  id: 'format',
  name: 'format produces edits for a badly formatted line',
  needs: ['format'],
  uses: ['unformatted'],
  async run({ fixture, root, query }, { unformatted }) {
    const line = await find(fixture, unformatted)
    const result = await query({ operation: 'format', root, path: line.path, options: { tabSize: 2, insertSpaces: true } })
    const edits = textEdits(result.edit.operations).filter((e) => e.path === line.path)
    expect(
      edits.some((e) => covers(e.edit.range, line.line)),
      `no format edit on ${line.where} (${edits.length} edits)`,
    )
    return `${edits.length} edits`
  },
})

export const codeActionsCheck = check({
  id: 'codeActions',
  name: 'code actions offer the expected action, each with an id and a title',
  needs: ['codeActions'],
  uses: ['codeAction'],
  async run({ fixture, root, query }, { codeAction }) {
    const action = await listActions(fixture, root, query, codeAction)
    return action.titles.join(', ')
  },
})

export const resolveCodeActionCheck = check({
  id: 'resolveCodeAction',
  name: 'resolveCodeAction computes the edit of the expected action, without writing',
  needs: ['codeActions', 'resolveCodeAction'],
  uses: ['codeAction'],
  async run({ fixture, root, query }, { codeAction }) {
    const { action, path } = await listActions(fixture, root, query, codeAction)
    const before = await fixture.text(codeAction.at.file)
    const resolved = await query({ operation: 'resolveCodeAction', root, path, actionId: action.id })
    const edits = [resolved.edit, ...(resolved.command?.appliedEdits ?? [])].flatMap((e) => e.operations)
    expect(
      edits.some((op) => op.type === 'edit' && op.path === path && op.edits.length > 0),
      `the resolution of "${action.title}" has no edit for ${codeAction.at.file}`,
    )
    expect((await fixture.text(codeAction.at.file)) === before, 'resolving must not write the file')
    return resolved.title
  },
})

/** Lists the code actions at the record's site and picks the expected one. */
async function listActions(
  fixture: FixtureWorkspace,
  root: string,
  query: CheckContext['query'],
  codeAction: NonNullable<ConformanceFixture['codeAction']>,
) {
  const at = await find(fixture, codeAction.at)
  const range = { start: at.position, end: at.position }
  const listed = await query({
    operation: 'codeActions',
    root,
    path: at.path,
    range,
    ...(codeAction.only !== undefined ? { only: codeAction.only } : {}),
  })
  const wanted = codeAction.title?.toLowerCase()
  const action = listed.actions.find((a) => wanted === undefined || a.title.toLowerCase().includes(wanted))
  expect(
    action !== undefined,
    `no action${wanted === undefined ? '' : ` titled "${codeAction.title}"`} offered at ${at.where}${codeAction.only ? ` (only ${codeAction.only.join(', ')})` : ''}: ${JSON.stringify(listed.actions.map((a) => a.title))}`,
  )
  for (const a of listed.actions) expect(a.id.length > 0 && a.title.length > 0, `action without id or title: ${JSON.stringify(a)}`)
  return { action, path: at.path, titles: listed.actions.map((a) => a.title) }
}
