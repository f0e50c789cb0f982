import { lspErrorCodes } from '@codeseam/lsp'
import { ModelRangeOutput, NonNegativeInt, PositiveInt } from '@codeseam/tool-lsp'
import { Schema } from 'effect'

/**
 * Schema pieces of the mutating tools: the inputs every one of them takes (dryRun, expectedHashes) and the
 * receipt every one of them returns, mirroring receipt.ts so the MCP server can expose structured output.
 */

/** Preview only. */
export const DryRunInput = Schema.optional(Schema.Boolean).annotate({
  description: 'true: compute and show the change (unified diff + edit list) without writing anything or asking for approval.',
})

/** Conditional edits: file → hash it must still have. */
export const ExpectedHashesInput = Schema.optional(
  Schema.Array(
    Schema.Struct({
      path: Schema.String.annotate({ description: 'Workspace-relative file path.' }),
      hash: Schema.String.annotate({
        description:
          'The sha-256 content hash (hex) you last saw for it: all of it, or its first 12 or more digits as a receipt prints them.',
      }),
    }),
  ),
).annotate({
  description:
    "Conditional edit: the content hash each file must still have (from a receipt's hashAfter or a preview's hashBefore). If any differs, nothing is written (STALE_VERSION).",
})

/** The decoded list as the engine takes it (path → hash). */
export function expectedHashesOf(
  list: ReadonlyArray<{ readonly path: string; readonly hash: string }> | undefined,
): Readonly<Record<string, string>> | undefined {
  return list === undefined ? undefined : Object.fromEntries(list.map((e) => [e.path, e.hash]))
}

const Severity = Schema.Literals(['error', 'warning', 'information', 'hint'])
const Freshness = Schema.Literals(['current', 'stale', 'unknown', 'unavailable'])

const PreviewEditOutput = Schema.Struct({ range: ModelRangeOutput, oldText: Schema.String, newText: Schema.String })

const PreviewFileOutput = Schema.Struct({
  path: Schema.String,
  change: Schema.Literals(['modify', 'create', 'delete', 'rename']),
  newPath: Schema.optional(Schema.String),
  hashBefore: Schema.optional(Schema.String),
  hashAfter: Schema.optional(Schema.String),
  edits: Schema.Array(PreviewEditOutput),
  diff: Schema.String,
  linesAdded: NonNegativeInt,
  linesRemoved: NonNegativeInt,
})

const ResourceOperationOutput = Schema.Struct({
  type: Schema.Literals(['create', 'rename', 'delete']),
  path: Schema.String,
  newPath: Schema.optional(Schema.String),
  overwrite: Schema.optional(Schema.Boolean),
  ignoreIfExists: Schema.optional(Schema.Boolean),
  recursive: Schema.optional(Schema.Boolean),
  ignoreIfNotExists: Schema.optional(Schema.Boolean),
  destructive: Schema.Boolean,
  annotation: Schema.optional(Schema.String),
})

/** A transaction's preview. */
export const PreviewOutput = Schema.Struct({
  files: Schema.Array(PreviewFileOutput),
  resourceOperations: Schema.Array(ResourceOperationOutput),
  counts: Schema.Struct({
    files: NonNegativeInt,
    edits: NonNegativeInt,
    resourceOperations: NonNegativeInt,
    linesAdded: NonNegativeInt,
    linesRemoved: NonNegativeInt,
  }),
  unpreviewable: Schema.Array(Schema.String),
})

const DiagnosticOutput = Schema.Struct({
  path: Schema.String,
  line: PositiveInt,
  column: PositiveInt,
  severity: Severity,
  message: Schema.String,
  code: Schema.optional(Schema.Union([Schema.String, Schema.Finite])),
  source: Schema.optional(Schema.String),
})

const DeltaOutput = Schema.Struct({
  introduced: Schema.Array(DiagnosticOutput),
  resolved: Schema.Array(DiagnosticOutput),
  persisting: Schema.Array(DiagnosticOutput),
  files: Schema.Array(Schema.Struct({ path: Schema.String, before: Freshness, after: Freshness, note: Schema.optional(Schema.String) })),
  settled: Schema.Boolean,
  checked: Schema.optional(
    Schema.Struct({
      files: NonNegativeInt,
      impact: NonNegativeInt,
      notChecked: Schema.Array(Schema.String),
      limits: Schema.optional(Schema.Array(Schema.String)).annotate({
        description: "What these diagnostics cannot see, per language (e.g. Rust's own analysis without cargo check).",
      }),
    }),
  ),
}).annotate({ description: 'Diagnostics of the checked files (touched files and files that used what changed), before and after.' })

const IntegrityLocationFields = { path: Schema.String, line: PositiveInt, column: PositiveInt, snippet: Schema.String }

const IntegrityOutput = Schema.Struct({
  references: NonNegativeInt,
  covered: NonNegativeInt,
  leftBehind: Schema.Array(
    Schema.Struct({
      ...IntegrityLocationFields,
      inside: Schema.optional(Schema.String).annotate({
        description: 'set when the use is in text the server resolves no names in (`a macro_rules! body`)',
      }),
    }),
  ),
  throughAlias: Schema.Array(Schema.Struct({ ...IntegrityLocationFields, name: Schema.String })),
  names: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String, count: PositiveInt })),
  keptByAlias: Schema.Array(Schema.Struct(IntegrityLocationFields)),
  partialAccepted: Schema.Boolean,
}).annotate({
  description: 'A rename compared with every reference of its symbol: uses it changes, leaves behind, or reaches through an alias.',
})

/** A transaction's receipt. */
export const ReceiptOutput = Schema.Struct({
  transactionId: Schema.String,
  tool: Schema.String,
  /** The workspace, by id (paths in the receipt are relative to its root; the absolute root is never shown). */
  rootId: Schema.String,
  status: Schema.Literals(['applied', 'unchanged', 'previewed', 'denied', 'conflict', 'refused', 'failed']),
  dryRun: Schema.Boolean,
  files: Schema.Array(
    Schema.Struct({
      path: Schema.String,
      change: Schema.Literals(['modify', 'create', 'delete', 'rename']),
      newPath: Schema.optional(Schema.String),
      editCount: NonNegativeInt,
      hashBefore: Schema.optional(Schema.String),
      hashAfter: Schema.optional(Schema.String),
      saved: Schema.Boolean,
    }),
  ),
  editCount: NonNegativeInt,
  resourceOperations: Schema.Array(ResourceOperationOutput),
  approval: Schema.Struct({
    decision: Schema.Literals(['auto', 'session', 'approved', 'approvedAll', 'denied', 'notAsked']),
    explicitRequired: Schema.Boolean,
    reasons: Schema.Array(Schema.String),
    deniedReason: Schema.optional(Schema.String),
  }),
  snippetEditsAsPlainText: NonNegativeInt,
  preview: Schema.optional(PreviewOutput),
  diagnostics: Schema.optional(DeltaOutput),
  predicted: Schema.optional(DeltaOutput),
  integrity: Schema.optional(IntegrityOutput),
  command: Schema.optional(Schema.Struct({ title: Schema.String, command: Schema.String, result: Schema.optional(Schema.Unknown) })),
  error: Schema.optional(
    Schema.Struct({
      code: Schema.Literals(lspErrorCodes),
      message: Schema.String,
      data: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
    }),
  ),
  notes: Schema.Array(Schema.String),
  startedAt: Schema.String,
  elapsedMs: NonNegativeInt,
})
