import type { ConformanceCheckId } from '@codeseam/lsp/testing'

import type { RecordConformance } from '../record.js'

/*
 * Kotlin through JDT LS: the product's Kotlin plugin (`co.karellen.jdtls.kotlin` 1.0.7) parses `.kt` files with an
 * ANTLR grammar and adds them to JDT's search as derived sources (languageId `kotlin`); there is no Kotlin compiler.
 * A `.kt` file is served only inside a source folder of the imported project: `src/main/java`, a POM's
 * `<sourceDirectory>` (the usual Kotlin POM names `src/main/kotlin` there), or a folder build-helper-maven-plugin's
 * `add-source` adds (m2e runs it); kotlin-maven-plugin's `sourceDirs` are not read (m2e does not run it). Elsewhere
 * (`src/main/kotlin` of a plain POM) hover is empty and references fail. Measured on the seam's Kotlin fixture (a
 * Java interface, Kotlin classes implementing it, a Kotlin call of a Java method), each limit asked of the bare
 * server at the same position.
 */

/** Inside a function body, JDT LS's element at a Kotlin name is the enclosing declaration. */
const enclosing =
  'inside a function body the Kotlin plugin resolves a name to the enclosing declaration: at a call of a Kotlin function or a local `val` the answer is the function `render` around it (a Kotlin call of a Java method resolves: `Units.toCentimetres`)'

const limits = {
  definition: `definition: ${enclosing}`,
  definitionUtf16: `definition of a local: ${enclosing}`,
  declaration: `declaration: ${enclosing}`,
  hover: `hover: ${enclosing}, so it shows \`render()\`; hover on a declaration's name is right`,
  hoverNonAscii: `hover of a local: ${enclosing}`,
  typeDefinition: 'at a Kotlin variable JDT LS answers with neither a result nor an error (an invalid JSON-RPC response)',
  references: "the uses are found (Kotlin files), but the declaration's location is its whole range from `fun`, not its name",
  signatureHelp: 'no signatures inside a Kotlin call, of a Kotlin function or of a Java method',
  completion: 'no completion items in Kotlin files (after `circle.`)',
  rename:
    'prepareRename answers "Renaming this element is not supported" and rename fails with "Compilation unit could not be created for this element"',
  format:
    'JDT LS formats a Kotlin file with the Java formatter: it joins the statements of a body on one line without semicolons, which is no longer valid Kotlin (the edits the check counts are wrong ones) — do not format .kt files',
  diagnostics: 'no diagnostics for Kotlin files (no Kotlin compiler): a `String` given to an `Int` is not reported',
  codeActions: 'no code actions in Kotlin files (organize imports or any other)',
  resolveCodeAction: 'no code actions in Kotlin files to resolve',
  callHierarchy:
    "incoming calls name a Kotlin caller with the call site as its selection range, not its name, and outgoing calls of that item are empty (asked at the caller's name they are right)",
} satisfies Partial<Record<ConformanceCheckId, string>>

/** The Kotlin conformance run of the jdtls record. */
export const kotlinConformance: RecordConformance = {
  language: 'kotlin',
  limits,
  expect: { skipped: Object.keys(limits) as ConformanceCheckId[] },
}

/** What Kotlin gets, for the README's table. */
export const kotlinNotes =
  "Kotlin (`.kt`) through the same server's Kotlin plugin, a parser without a Kotlin compiler, in the Java projects' source folders: outline, workspace symbols, implementations of Java interfaces, type hierarchy across Java and Kotlin, references (declaration range whole), Kotlin calls of Java methods; NOT definition or hover of Kotlin names inside bodies (they land on the enclosing function), completion, signature help, rename, diagnostics, code actions; formatting a .kt file breaks it"
