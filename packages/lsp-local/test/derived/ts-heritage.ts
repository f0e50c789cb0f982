// The TypeScript type-hierarchy oracle (issue 16): every named class and interface declaration in the files the
// server's projects cover, its heritage clauses resolved with the compiler API's type checker — never with the
// language server, never with the derivation's way (definitions on the header's text).
//
// Decisions (the reference the derivation is judged by):
// - Projects: test/oracle/projects.ts's (every tsconfig.json / jsconfig.json and what they reference); one
//   program per project, importing a referenced project's sources (as the language service does, not its
//   output .d.ts); a file's declarations are the union over the projects holding it.
// - Declarations: ClassDeclaration and InterfaceDeclaration with a name, at any depth (namespaces, functions).
//   Each is keyed by workspace-relative file and the 0-based line of its name. A class expression (`return
//   class extends Base implements Shape {}`) is no declaration asked about (it has no name to ask at) but is a
//   subtype of its bases, keyed by its name's line, else its `class` keyword's.
// - Merged declarations (an interface declared twice) are entries of their own, each with its own heritage
//   clauses; a base naming a merged symbol has every class / interface declaration of it as supertypes.
// - A heritage type (`extends`, `implements`) whose expression is an identifier or a property access is
//   resolved with getSymbolAtLocation, following import aliases (getAliasedSymbol), type aliases whose type is
//   a plain reference (`type A = lib.Plain`), and `const A = Base` (an identifier / property access initializer).
//   A type alias of anything else (`type Shape = { … }`) is a declaration in the workspace: it is the supertype.
// - Unresolved, by its expression text as written minus type arguments (a call by its callee, arguments left
//   out: `Mixin(Base)` is `Mixin`): a symbol declared only outside the root or under node_modules (lib.d.ts's
//   `Error`), a call, or a value that is no class once followed (a variable holding a call's result).
// - Subtypes: the inverse relation over all declarations and class expressions found.
import * as nodePath from 'node:path'

import ts from 'typescript'

import { typeScriptConfigs } from '../oracle/projects.js'
import type { HeritageDeclaration, HeritageOracle } from './heritage.js'

function relativeTo(root: string, path: string): string {
  return nodePath.relative(root, path).split(nodePath.sep).join('/')
}

/** A compiler host whose parsed files are shared by every program (a corpus's projects share most files and lib). */
function sharedHost(cache: Map<string, ts.SourceFile>, options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true)
  // As the language service does: an import of a referenced project's file is that file's source, never its
  // (unbuilt) output .d.ts.
  ;(host as ts.CompilerHost & { useSourceOfProjectReferenceRedirect?: () => boolean }).useSourceOfProjectReferenceRedirect = () => true
  const parse = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const version = typeof languageVersion === 'object' ? JSON.stringify(languageVersion) : String(languageVersion)
    const key = `${fileName}\u0000${version}`
    let file = cache.get(key)
    if (file === undefined) {
      file = parse(fileName, languageVersion, onError, shouldCreate)
      if (file !== undefined) cache.set(key, file)
    }
    return file
  }
  return host
}

type Declaration = ts.ClassDeclaration | ts.InterfaceDeclaration

/** A declaration asked about (named), or a class expression (only a subtype of its bases: no name to ask at). */
const isHeritageNode = (node: ts.Node): node is Declaration | ts.ClassExpression =>
  ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name !== undefined) || ts.isClassExpression(node)

export function typeScriptHeritage(root: string): HeritageOracle {
  const inWorkspace = (file: string) => {
    const relative = nodePath.relative(root, file)
    return !relative.startsWith('..') && !nodePath.isAbsolute(relative) && !relative.split(/[\\/]/).includes('node_modules')
  }
  const keyOf = (declaration: Declaration | ts.TypeAliasDeclaration | ts.ClassExpression) => {
    const file = declaration.getSourceFile()
    const name = declaration.name ?? declaration
    return `${relativeTo(root, file.fileName)}:${file.getLineAndCharacterOfPosition(name.getStart(file)).line}`
  }
  const found = new Map<
    string,
    {
      name: string
      kind: 'class' | 'interface'
      asked: boolean
      file: string
      line: number
      bases: Map<number, { written: string; keys: Set<string> }>
    }
  >()
  const cache = new Map<string, ts.SourceFile>()

  for (const { parsed } of typeScriptConfigs(root)) {
    if (parsed.fileNames.length === 0) continue
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: { ...parsed.options, noEmit: true },
      ...(parsed.projectReferences === undefined ? {} : { projectReferences: parsed.projectReferences }),
      host: sharedHost(cache, parsed.options),
    })
    const checker = program.getTypeChecker()

    /** Class / interface declarations inside the workspace that a symbol stands for, following aliases. */
    const targets = (symbol: ts.Symbol | undefined, depth = 0): Array<Declaration | ts.TypeAliasDeclaration> => {
      if (symbol === undefined || depth > 20) return []
      if (symbol.flags & ts.SymbolFlags.Alias) return targets(checker.getAliasedSymbol(symbol), depth + 1)
      const declarations = symbol.declarations ?? []
      const direct = declarations.filter((d): d is Declaration => ts.isClassDeclaration(d) || ts.isInterfaceDeclaration(d))
      if (direct.length > 0) return direct.filter((d) => inWorkspace(d.getSourceFile().fileName))
      return declarations.flatMap((d) => {
        if (ts.isTypeAliasDeclaration(d)) {
          if (!ts.isTypeReferenceNode(d.type)) return inWorkspace(d.getSourceFile().fileName) ? [d] : []
          const name = ts.isQualifiedName(d.type.typeName) ? d.type.typeName.right : d.type.typeName
          return targets(checker.getSymbolAtLocation(name), depth + 1)
        }
        if (ts.isVariableDeclaration(d) && d.initializer !== undefined) {
          const init = d.initializer
          if (ts.isIdentifier(init)) return targets(checker.getSymbolAtLocation(init), depth + 1)
          if (ts.isPropertyAccessExpression(init)) return targets(checker.getSymbolAtLocation(init.name), depth + 1)
        }
        return []
      })
    }

    const visit = (node: ts.Node): void => {
      if (isHeritageNode(node)) {
        const key = keyOf(node)
        const file = node.getSourceFile()
        const entry = found.get(key) ?? {
          name: node.name?.text ?? '(class expression)',
          kind: ts.isInterfaceDeclaration(node) ? ('interface' as const) : ('class' as const),
          asked: !ts.isClassExpression(node),
          file: relativeTo(root, file.fileName),
          line: file.getLineAndCharacterOfPosition((node.name ?? node).getStart(file)).line,
          bases: new Map<number, { written: string; keys: Set<string> }>(),
        }
        found.set(key, entry)
        // A base resolved in one project and not in another (a missing dependency) counts as resolved.
        const types = (node.heritageClauses ?? []).flatMap((clause) => clause.types)
        types.forEach((type, index) => {
          const expression = type.expression
          const at = ts.isIdentifier(expression) ? expression : ts.isPropertyAccessExpression(expression) ? expression.name : undefined
          const written = (ts.isCallExpression(expression) ? expression.expression : expression).getText(file)
          const base = entry.bases.get(index) ?? { written, keys: new Set<string>() }
          entry.bases.set(index, base)
          for (const declaration of at === undefined ? [] : targets(checker.getSymbolAtLocation(at))) base.keys.add(keyOf(declaration))
        })
      }
      ts.forEachChild(node, visit)
    }
    for (const file of program.getSourceFiles()) if (inWorkspace(file.fileName)) visit(file)
  }

  const supertypes = new Map<string, string[]>()
  const subtypes = new Map<string, Set<string>>()
  for (const [key, entry] of found) {
    const bases = [...entry.bases.values()].flatMap((base) => (base.keys.size === 0 ? [`?${base.written}`] : [...base.keys]))
    supertypes.set(key, bases)
    for (const base of bases) if (!base.startsWith('?')) subtypes.set(base, (subtypes.get(base) ?? new Set()).add(key))
  }
  const declarations: HeritageDeclaration[] = [...found]
    .filter(([, entry]) => entry.asked)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, entry]) => ({
      key,
      file: entry.file,
      line: entry.line,
      name: entry.name,
      kind: entry.kind,
      supertypes: [...new Set(supertypes.get(key))].sort(),
      subtypes: [...(subtypes.get(key) ?? [])].sort(),
    }))
  return { declarations, overrides: [] }
}
