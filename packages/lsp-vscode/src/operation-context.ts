import type * as vscode from 'vscode'

import type { Containment } from './containment.js'
import type { Deadline } from './deadline.js'
import type { DocumentTracker } from './documents.js'

/*
 * What one seam operation runs with, in a module of its own: session.ts (the read helpers) and
 * readiness.ts (the warm-up waits) both take it, and readiness.ts is imported by session.ts.
 */

/** A bounded map that forgets the least recently used entry first. */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.entries.delete(oldest.value)
    }
  }
}

/** What one seam operation needs while it runs. */
export interface OperationContext {
  readonly providerId: string
  readonly root: string
  readonly languageId: string
  readonly deadline: Deadline
  readonly containment: Containment
  readonly documents: DocumentTracker
  /** Languages whose extension has shown it analysed a document (diagnostics) or answered non-empty. */
  readonly warmLanguages: Set<string>
  /** Languages whose first-query warm-up already ran (it runs once per language). */
  readonly warmUpTried: Set<string>
  /** How long a cold, empty read may wait for the extension to show signs of life before its one retry. */
  readonly warmupWaitMs: number
  /** VS Code's own hierarchy items by seam id: follow-up commands need the very objects prepare returned. */
  readonly hierarchyItems: RecentMap<string, vscode.CallHierarchyItem | vscode.TypeHierarchyItem>
  /** Listed code actions by seam id, with what is needed to find them again. */
  readonly codeActions: RecentMap<string, ListedCodeAction>
  /** How many listed code actions VS Code resolves (fills in lazy edits) per listing. */
  readonly codeActionResolveCount: number
  /** How long a document's diagnostics must stay unchanged before they are taken as complete. */
  readonly diagnosticsSettleMs: number
  /** Show a document in an editor tab before asking for its diagnostics. */
  readonly revealForDiagnostics: boolean
}

/** A code action as listed: the VS Code object and the request that produced it. */
export interface ListedCodeAction {
  readonly path: string
  readonly version: number
  readonly range: vscode.Range
  readonly kind: string | undefined
  readonly index: number
  readonly action: vscode.CodeAction | vscode.Command
}
