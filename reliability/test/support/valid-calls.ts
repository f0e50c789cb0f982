// A valid call of every tool on the fixture workspace (support/fixture.ts): the base that attacks and
// malformed-argument generators start from, so a refusal is about what was changed, not the rest.

/** A valid call of every tool on the fixture; each path slot is then replaced by an attack. */
export const validCalls: Record<string, Record<string, unknown>> = {
  code_symbols: { path: 'src/a.ts' },
  code_navigate: { target: { path: 'src/a.ts', symbol: 'greet' }, kind: 'references' },
  code_hierarchy: { target: { path: 'src/a.ts', symbol: 'greet' }, kind: 'callers' },
  code_hover: { target: { path: 'src/a.ts', symbol: 'greet' } },
  code_impact: { target: { path: 'src/a.ts', symbol: 'greet' } },
  code_diagnostics: { path: 'src/a.ts' },
  code_inlay_hints: { path: 'src/b.ts' },
  code_completions: { target: { path: 'src/b.ts', line: 3, matchText: 'greet' } },
  code_status: {},
  code_rename: { target: { path: 'src/a.ts', symbol: 'greet' }, newName: 'welcome' },
  code_actions: { path: 'src/a.ts', line: 1 },
  code_format: { path: 'src/a.ts' },
  code_insert: { target: { path: 'src/a.ts', symbol: 'greet' }, position: 'after', text: 'export const inserted = 1' },
  code_replace: { target: { path: 'src/a.ts', symbol: 'greet' }, text: "export function greet(): string {\n  return 'replaced'\n}" },
  code_replace_batch: {
    edits: [{ target: { path: 'src/a.ts', symbol: 'greet' }, text: "export function greet(): string {\n  return 'replaced'\n}" }],
  },
}

/** The tools that change files (run with auto-approval in the suites, so a slip would write). */
export const mutating: ReadonlySet<string> = new Set([
  'code_rename',
  'code_actions',
  'code_format',
  'code_insert',
  'code_replace',
  'code_replace_batch',
])
