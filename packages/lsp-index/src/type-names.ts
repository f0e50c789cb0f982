// The type names a signature line writes (`var circle: Circle`, `(parameter) s: readonly Shape[]`, `function f():
// Map<K, V>`): what a type definition is derived from when the index records no `is_type_definition`.

/** Words of a type that name no declaration in the index: keywords and built-in types. */
const notTypes = new Set(
  'any unknown never void undefined null object string number boolean symbol bigint true false readonly typeof keyof infer extends is asserts unique this new'.split(
    ' ',
  ),
)

/** The text after the first `:` outside brackets, from `start`. */
function afterColon(text: string, start: number): string | undefined {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (c === '(' || c === '<' || c === '[' || c === '{') depth++
    else if (c === ')' || c === '>' || c === ']' || c === '}') depth--
    else if (c === ':' && depth === 0) return text.slice(i + 1)
  }
  return undefined
}

/** The return type of a function signature: after the parameter list's closing `)`, its `:` or `=>`. */
function returnType(text: string): string | undefined {
  const open = text.indexOf('(')
  if (open < 0) return undefined
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) {
      const rest = text.slice(i + 1).trimStart()
      return rest.startsWith(':') ? rest.slice(1) : rest.startsWith('=>') ? rest.slice(2) : undefined
    }
  }
  return undefined
}

/** The names of the types a signature line gives its symbol, in order, each once. */
export function typeNamesOf(signature: string): string[] {
  const prefix = /^\((?:property|parameter|variable|getter|setter|accessor)\)\s*|^(?:var|let|const)\s+/.exec(signature)
  const callable = /^\((?:method|function)\)\s*|^(?:async\s+)?function\s+/.exec(signature)
  const type = prefix !== null ? afterColon(signature, prefix[0].length) : callable !== null ? returnType(signature) : undefined
  if (type === undefined) return []
  const withoutLiterals = type.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, ' ')
  // A member access (`typeof x.y`, `A.B`) names its last part as the type's own name.
  const names = [...withoutLiterals.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)].map((m) => m[0].split('.').pop() ?? '')
  return [...new Set(names.filter((name) => name !== '' && !notTypes.has(name)))]
}
