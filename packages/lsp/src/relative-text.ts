import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { canonicalPath } from './paths.js'
import type {
  LspDiagnostic,
  LspDocumentSymbol,
  LspHierarchyItem,
  LspInlayHint,
  LspQueryResult,
  LspResultMeta,
  LspSignatureInformation,
  LspWorkspaceEdit,
} from './vocabulary.js'

/**
 * Servers quote absolute paths in text meant for people: the native TypeScript server names a module's
 * call-hierarchy item by its path and prints `typeof import("/abs/…/x")` in types and diagnostics, pyright
 * lists the files of an import cycle, hovers link to `file:///abs/…` URIs. Answers speak workspace-relative
 * paths, so the seam rewrites every whole-path occurrence under the request's root in free-text fields
 * (never the `path` / `uri` / `data` fields it uses structurally).
 */

/** Rewrites free text: absolute paths and `file:` URIs under one root become workspace-relative. */
export type TextRelativizer = (text: string) => string

const identity: TextRelativizer = (text) => text

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function withoutTrailingSeparator(path: string): string {
  let out = path
  while (out.length > 1 && (out.endsWith('/') || (nodePath.sep === '\\' && out.endsWith('\\')))) out = out.slice(0, -1)
  return out
}

/**
 * Characters that end a path in prose, code and markdown: after the root itself they make the occurrence the
 * root (`.`); any other character (a letter, `-`, `_`…) makes it a sibling (`/tmp/rootX` is not under `/tmp/root`).
 */
const terminator = `\\s"'\`)\\]}>,;:!?|`

/**
 * A relativizer for one root, matching the root as given and its canonical (real) path, each plain and as a
 * `file:` URI. Only whole paths match: the occurrence must not continue a longer path (`/var/tmp/root` is not
 * `/tmp/root`), and must end at a separator (→ the rest, relative) or at the end of the path (→ `.`).
 */
export function textRelativizer(root: string): TextRelativizer {
  const given = withoutTrailingSeparator(nodePath.normalize(root))
  // The file-system root: every absolute path is "under" it, and relative forms would only lose information.
  if (!nodePath.isAbsolute(given) || nodePath.parse(given).root === given || nodePath.parse(given).root === `${given}${nodePath.sep}`)
    return identity
  const spellings = new Set([given, withoutTrailingSeparator(canonicalPath(given))])
  const uris = new Set<string>()
  for (const spelling of spellings) {
    uris.add(withoutTrailingSeparator(pathToFileURL(spelling).href))
    // Some servers build URIs by concatenation, without percent-encoding.
    uris.add(`file://${spelling.startsWith('/') ? '' : '/'}${spelling.replace(/\\/g, '/')}`)
  }
  const forms = [...uris, ...spellings].sort((a, b) => b.length - a.length)
  const separators = nodePath.sep === '\\' ? '[\\\\/]' : '/'
  // Not preceded by a character that would make the match the tail of a longer path or URI.
  const pattern = new RegExp(
    `(?<![\\w.~%/\\\\-])(?:${forms.map(escapeRegExp).join('|')})(?:(${separators})(?=[^${terminator}])|${separators}?(?=$|[${terminator}]|\\.(?:$|\\s)))`,
    'g',
  )
  return (text) => {
    if (!forms.some((form) => text.includes(form))) return text
    return text.replace(pattern, (match: string, separator: string | undefined, offset: number) => {
      if (separator !== undefined) return ''
      // The root itself is `.`; before a full stop, `./` (so a sentence never reads as `..`).
      return text[offset + match.length] === '.' ? './' : '.'
    })
  }
}

/** Rewrites absolute paths under `root` in one piece of free text to workspace-relative form. */
export function relativizeText(text: string, root: string): string {
  return textRelativizer(root)(text)
}

function optional<K extends string>(key: K, value: string | undefined, rewrite: TextRelativizer): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: rewrite(value) }) as { [P in K]?: string }
}

function hierarchyItem(item: LspHierarchyItem, rewrite: TextRelativizer): LspHierarchyItem {
  // `id`, `uri`, `path`, ranges and the provider's `data` are structural: follow-ups send them back as they are.
  return { ...item, name: rewrite(item.name), ...optional('detail', item.detail, rewrite) }
}

function documentSymbol(symbol: LspDocumentSymbol, rewrite: TextRelativizer): LspDocumentSymbol {
  return {
    ...symbol,
    name: rewrite(symbol.name),
    ...optional('detail', symbol.detail, rewrite),
    children: symbol.children.map((child) => documentSymbol(child, rewrite)),
  }
}

function signature(info: LspSignatureInformation, rewrite: TextRelativizer): LspSignatureInformation {
  return {
    ...info,
    // A parameter label is a substring of the signature label; both are rewritten the same way, so it stays one.
    label: rewrite(info.label),
    ...optional('documentation', info.documentation, rewrite),
    parameters: info.parameters.map((p) => ({ ...p, label: rewrite(p.label), ...optional('documentation', p.documentation, rewrite) })),
  }
}

function diagnostic(d: LspDiagnostic, rewrite: TextRelativizer): LspDiagnostic {
  return {
    ...d,
    message: rewrite(d.message),
    ...(d.related === undefined ? {} : { related: d.related.map((r) => ({ ...r, message: rewrite(r.message) })) }),
  }
}

function inlayHint(hint: LspInlayHint, rewrite: TextRelativizer): LspInlayHint {
  return {
    ...hint,
    // Text edits are code to insert, never rewritten.
    label:
      typeof hint.label === 'string'
        ? rewrite(hint.label)
        : hint.label.map((part) => ({ ...part, value: rewrite(part.value), ...optional('tooltip', part.tooltip, rewrite) })),
  }
}

function workspaceEdit(edit: LspWorkspaceEdit, rewrite: TextRelativizer): LspWorkspaceEdit {
  // Operations are structural (paths, URIs, code to write); only the annotations people read are text.
  if (edit.annotations === undefined) return edit
  return {
    ...edit,
    annotations: Object.fromEntries(
      Object.entries(edit.annotations).map(([id, a]) => [
        id,
        { ...a, label: rewrite(a.label), ...optional('description', a.description, rewrite) },
      ]),
    ),
  }
}

function meta(m: LspResultMeta, rewrite: TextRelativizer): LspResultMeta {
  return m.failures === undefined ? m : { ...m, failures: m.failures.map((f) => ({ ...f, message: rewrite(f.message) })) }
}

/**
 * Rewrites every free-text field of a result (names, details, hover and documentation text, diagnostic
 * messages, labels, titles, failure messages) so absolute paths under `rewrite`'s root become
 * workspace-relative. Paths, URIs, ranges, ids, provider data, code (insert texts, edits) are left alone.
 */
export function relativizeResult<T extends LspQueryResult>(result: T, rewrite: TextRelativizer): T {
  if (rewrite === identity) return result
  const r: LspQueryResult = result
  const out = ((): LspQueryResult => {
    switch (r.kind) {
      case 'locations':
        return r
      case 'hover':
        return r.hover === null ? r : { ...r, hover: { ...r.hover, contents: rewrite(r.hover.contents) } }
      case 'signatureHelp':
        return r.signatureHelp === null
          ? r
          : { ...r, signatureHelp: { ...r.signatureHelp, signatures: r.signatureHelp.signatures.map((s) => signature(s, rewrite)) } }
      case 'documentSymbols':
        return { ...r, symbols: r.symbols.map((s) => documentSymbol(s, rewrite)) }
      case 'workspaceSymbols':
        return {
          ...r,
          symbols: r.symbols.map((s) => ({ ...s, name: rewrite(s.name), ...optional('containerName', s.containerName, rewrite) })),
        }
      case 'hierarchyItems':
        return { ...r, items: r.items.map((i) => hierarchyItem(i, rewrite)) }
      case 'hierarchyCalls':
        return { ...r, calls: r.calls.map((c) => ({ ...c, item: hierarchyItem(c.item, rewrite) })) }
      case 'diagnostics':
        return { ...r, files: r.files.map((f) => ({ ...f, diagnostics: f.diagnostics.map((d) => diagnostic(d, rewrite)) })) }
      case 'inlayHints':
        return { ...r, hints: r.hints.map((h) => inlayHint(h, rewrite)) }
      case 'completion':
        // Labels and insert texts are what gets inserted; details and documentation are prose.
        return {
          ...r,
          items: r.items.map((i) => ({
            ...i,
            ...optional('detail', i.detail, rewrite),
            ...optional('documentation', i.documentation, rewrite),
          })),
        }
      case 'codeActions':
        return {
          ...r,
          actions: r.actions.map((a) => ({ ...a, title: rewrite(a.title), ...optional('disabledReason', a.disabledReason, rewrite) })),
        }
      case 'prepareRename':
        return r.rename.canRename ? r : { ...r, rename: { ...r.rename, reason: rewrite(r.rename.reason) } }
      case 'workspaceEdit':
        return { ...r, edit: workspaceEdit(r.edit, rewrite) }
      case 'codeActionResolution':
        return {
          ...r,
          title: rewrite(r.title),
          edit: workspaceEdit(r.edit, rewrite),
          ...(r.command === undefined
            ? {}
            : {
                command: {
                  ...r.command,
                  title: rewrite(r.command.title),
                  appliedEdits: r.command.appliedEdits.map((e) => workspaceEdit(e, rewrite)),
                },
              }),
        }
    }
  })()
  return { ...out, meta: meta(out.meta, rewrite) } as T
}
