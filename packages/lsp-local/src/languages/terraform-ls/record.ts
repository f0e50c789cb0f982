import * as nodePath from 'node:path'

import { callHierarchy, codeSupport, notYet, typeHierarchy, type SupportTable } from '../../profile/profile-operations.js'
import { goBinDirectories, installRecipe, installedCandidates, type ServerPackage } from '../install.js'
import { probeVersion } from '../lookup.js'
import type { LanguageRecord, Located, SymbolNaming } from '../record.js'
import { offlineProxy } from '../settings.js'
import { terraformModulesProjectModel } from './project-model.js'

/**
 * The terraform-ls release codeseam installs from the Go module proxy: the only one that builds here (v0.39.1 and
 * v0.38.8 need a dependency the proxy does not serve).
 */
export const terraformLsVersion = 'v0.39.0'

/** terraform-ls from the Go module proxy, into Go's bin folder. */
export const terraformLsPackage: ServerPackage = {
  purl: `pkg:golang/github.com/hashicorp/terraform-ls@${terraformLsVersion}`,
  bin: ['terraform-ls'],
}

export const terraformLsInstall = installRecipe('terraform-ls', terraformLsPackage).command

const noFormat = {
  no: 'terraform-ls formats (and fixes all) by running the terraform CLI (`terraform fmt`), which codeseam does not install and never runs for an untrusted root',
}

/** terraform-ls v0.39: outline, definitions and references of variables, locals, outputs and modules, hover, validation. */
export const terraformLsSupport: SupportTable = codeSupport({
  typeDefinition: { no: 'Terraform has no types to go to (terraform-ls has no textDocument/typeDefinition)', inLanguage: false },
  implementation: { no: 'Terraform has no implementations', inLanguage: false },
  ...callHierarchy({ no: 'Terraform has no calls between declarations', inLanguage: false }),
  ...typeHierarchy({ no: 'Terraform has no type hierarchy', inLanguage: false }),
  signatureHelp: notYet,
  inlayHints: { no: 'terraform-ls has no inlay hints' },
  prepareRename: { no: 'terraform-ls has no rename' },
  rename: { no: 'terraform-ls has no rename' },
  codeActions: noFormat,
  resolveCodeAction: noFormat,
  format: noFormat,
})

/** `terraform-ls version` (see probeVersion): its first line is the bare version. */
function terraformLsVersionOf(executable: string): Promise<string | undefined> {
  return probeVersion(executable, ['version'], /^v?(\d+\.\d+\.\d+\S*)/m)
}

async function locateTerraformLs(): Promise<Located> {
  const tried: string[] = []
  for (const candidate of installedCandidates('terraform-ls', terraformLsPackage)) {
    const version = await terraformLsVersionOf(candidate)
    if (version !== undefined) return { found: true, command: candidate, version }
    tried.push(candidate)
  }
  const why =
    tried.length === 0
      ? `terraform-ls is neither on PATH nor in ${goBinDirectories().join(', ')}`
      : `${tried.join(', ')} did not answer \`terraform-ls version\` (not a working terraform-ls)`
  return {
    found: false,
    command: 'terraform-ls',
    why: `${why}: install it with \`${terraformLsInstall}\` (Go 1.26; a build of one to three minutes)`,
  }
}

/** `variable "region"` and `resource "aws_s3_bucket" "logs"`: the block type and its labels. */
const blockLabel = /^([a-z_]+)((?:\s+"[^"]*")+)$/

/**
 * A block as Terraform addresses it: `variable "region"` is `region` in `var` (`var.region`), `resource "aws_s3_bucket"
 * "logs"` is `logs` in `aws_s3_bucket`, `data "aws_iam_policy" "x"` is `x` in `data.aws_iam_policy`, `module "vpc"`
 * is `vpc` in `module`; `locals`, `terraform` and attributes keep their labels.
 */
export const terraformSymbolName: SymbolNaming = (label) => {
  const block = blockLabel.exec(label)
  if (block === null) return undefined
  const type = block[1] ?? ''
  const labels = [...(block[2] ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '')
  const name = labels.at(-1) ?? ''
  if (type === 'variable') return { name, containerName: 'var' }
  if (type === 'resource' && labels.length === 2) return { name, containerName: labels[0] ?? '' }
  if (labels.length === 2) return { name, containerName: `${type}.${labels[0] ?? ''}` }
  return { name, containerName: type }
}

export const terraformLsRecord: LanguageRecord = {
  id: 'terraform-ls',
  order: 175,
  language: 'Terraform',
  server: `terraform-ls ${terraformLsVersion}`,
  support: terraformLsSupport,
  locate: locateTerraformLs,
  install: terraformLsPackage,
  recognizes: (command) => nodePath.basename(command) === 'terraform-ls',
  symbolName: terraformSymbolName,
  profile: () => ({
    args: ['serve'],
    extensions: { '.tf': 'terraform', '.tfvars': 'terraform-vars' },
    // terraform-ls asks registry.terraform.io for the inputs and outputs of the registry modules a module calls
    // (internal/registry, a 5 s timeout each) while requests wait on the module's jobs: every request goes to a
    // closed loopback port, at every trust level, so no answer waits on the network.
    env: offlineProxy,
    // Definition, references, hover and the outline wait on the jobs of the document's folder; diagnostics are
    // published only when they change (a clean file may get none): an empty answer is the answer.
    answersWhenAnalysed: true,
    initializationOptions: { indexing: { ignoreDirectoryNames: [] }, validation: { enableEnhancedValidation: true } },
  }),
  projectModel: terraformModulesProjectModel,
  readiness: 'initialized',
  // Its commands run `terraform init` / `terraform validate` in the workspace, or only report: none runs.
  allowedCommands: [],
  trust: {
    strip: ['TF_CLI_CONFIG_FILE', 'TF_CLI_ARGS', 'TF_DATA_DIR', 'TF_PLUGIN_CACHE_DIR'],
    why: 'terraform-ls parses HCL itself; what it runs is the terraform CLI it finds on PATH (or `terraform.path`): `terraform version` and `terraform providers schema -json` in every module folder holding a `.terraform` folder or a `.terraform.lock.hcl` — the second starts the provider plugins `.terraform` holds, programs the workspace brought — and `terraform fmt`/`init`/`validate` on request. For an untrusted root its PATH is empty and `terraform.path` unset, so no terraform runs (and formatting, never offered, cannot); registry.terraform.io is never asked (a closed loopback proxy)',
    harden(draft) {
      // terraform-ls is spawned by absolute path before this; with no PATH it finds no terraform to run.
      draft.env['PATH'] = ''
      const options = (draft.initializationOptions ?? {}) as Record<string, unknown>
      const { path: _path, ...terraform } = (options['terraform'] ?? {}) as Record<string, unknown>
      const { terraformExecPath: _legacy, ...rest } = options
      draft.initializationOptions = { ...rest, terraform }
      draft.hardening.push('no terraform CLI (empty PATH, no terraform.path): no provider plugin runs', 'registry.terraform.io never asked')
    },
  },
  memory: { kind: 'go' },
  environment: { passed: [], onPath: /^(terraform-ls|terraform)$/ },
  projectFiles: ['.terraform.lock.hcl'],
  grammar: [],
  conformance: {
    language: 'terraform',
    limits: {
      references:
        'terraform-ls leaves the declaration (`variable "bucket_name"`) out of its references whatever includeDeclaration says; every use, in every file, is there',
    },
    expect: { runs: ['completion', 'declaration', 'definition', 'diagnostics', 'documentSymbols', 'hover', 'workspaceSymbols'] },
  },
  notes:
    'outline (blocks named as Terraform addresses them: `var.region`, `aws_s3_bucket.logs`), definitions and references of variables, locals and outputs across the files of a module and the modules that call it, hover, completion, workspace symbols and validation; a source build has no provider schemas, so a use inside a `resource` block is not seen; `codeseam install terraform` builds it from the Go module proxy (one to three minutes); never runs the terraform CLI for an untrusted root, never asks the Terraform registry; no formatting (it runs `terraform fmt`)',
}
