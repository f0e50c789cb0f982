import { check, expect, find } from './check-kit.js'

// Checks that a provider reports problems in the code.

export const diagnosticsCheck = check({
  id: 'diagnostics',
  name: 'the deliberate type error is reported at its line',
  needs: ['diagnostics'],
  uses: ['typeError'],
  async run({ fixture, root, query }, { typeError }) {
    const line = await find(fixture, typeError)
    const result = await query({ operation: 'diagnostics', root, path: line.path, waitMs: 20_000 })
    const file = result.files.find((f) => f.path === line.path)
    expect(
      file !== undefined,
      `no diagnostics entry for ${typeError.file} (files: ${result.files.map((f) => f.path.slice(root.length + 1)).join(', ')})`,
    )
    expect(
      file.diagnostics.some((d) => d.severity === 'error' && d.range.start.line === line.line),
      `no error at ${line.where}: ${JSON.stringify(file.diagnostics)}`,
    )
    expect(result.coverage.analysed.includes(line.path), `coverage should list ${typeError.file} as analysed`)
    return `${file.diagnostics.length} diagnostics, ${file.freshness}`
  },
})
