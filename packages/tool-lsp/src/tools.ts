import { codeCompletions } from './completions.js'
import type { AnyTool } from './definition.js'
import { codeDiagnostics } from './diagnostics.js'
import { codeHierarchy } from './hierarchy.js'
import { codeHover } from './hover.js'
import { codeImpact } from './impact.js'
import { codeInlayHints } from './inlay-hints.js'
import { codeNavigate } from './navigation.js'
import { codeStatus } from './status.js'
import { codeSymbols } from './symbols.js'

/** Every read-only tool, in the order harnesses list them (most used first). */
export const readTools: ReadonlyArray<AnyTool> = [
  codeSymbols,
  codeNavigate,
  codeHierarchy,
  codeImpact,
  codeHover,
  codeDiagnostics,
  codeInlayHints,
  codeCompletions,
  codeStatus,
]
