import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const main = 'main.tf'
const variables = 'variables.tf'

/**
 * Terraform (`fixtures/conformance-terraform`): one module of several files — a variable declared in one and used in
 * another, a local, outputs, and a reference to a variable nobody declared.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-terraform',
  main,
  definition: {
    use: { file: main, text: 'value       = var.bucket_name', at: 'bucket_name' },
    declaration: { file: variables, text: 'variable "bucket_name"', at: 'bucket_name' },
  },
  references: { declaration: { file: variables, text: 'variable "bucket_name"', at: 'bucket_name' }, word: 'bucket_name' },
  hover: { at: { file: main, text: 'value       = var.bucket_name', at: 'bucket_name' }, includes: ['var.bucket_name', 'string'] },
  completion: { at: { file: main, text: 'value = local.log_prefix', at: 'local' }, labels: ['local.log_prefix'] },
  documentSymbols: {
    file: variables,
    // terraform-ls labels a block `variable "bucket_name"`; named as Terraform addresses it (`var.bucket_name`).
    symbols: [{ name: 'bucket_name', kind: 'class', children: [{ name: 'description', kind: 'string' }] }],
  },
  // Workspace symbols keep the server's labels (the outline's naming is not applied to them).
  workspaceSymbol: { query: 'log_prefix', name: 'output "log_prefix"', kind: 'class', file: main },
  typeError: { file: 'broken.tf', text: 'value = var.not_declared' },
}
