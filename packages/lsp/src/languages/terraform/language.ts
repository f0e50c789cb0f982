import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Terraform (HCL): `#` and `//` line comments, slash-star blocks. */
export const language: LspLanguage = {
  id: 'terraform',
  languageIds: ['terraform', 'terraform-vars'],
  label: 'Terraform',
  extensions: ['.tf', '.tfvars'],
  comments: { line: ['#', '//'], block: [['/*', '*/']] },
  conformance: fixture,
}
