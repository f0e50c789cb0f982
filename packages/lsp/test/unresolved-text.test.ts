import { describe, expect, it } from 'vitest'

import { builtInFactsFor } from '../src/index.js'
import { rustMacroRulesBodies } from '../src/unresolved-text.js'

/** Text a server resolves no names in (RFC 0018): the spans rename integrity reads for the old name. */

const bodies = (text: string) => rustMacroRulesBodies(text).map(([start, end]) => text.slice(start, end))

describe('Rust macro_rules! bodies', () => {
  it('finds each definition’s outer token tree, whatever its brackets', () => {
    const text = [
      'fn helper() {}',
      'macro_rules! braces { ($e:expr) => { helper($e) }; }',
      'macro_rules! parens ( () => [ helper() ] );',
      'macro_rules! brackets [ () => ( helper() ) ];',
      'fn after() { helper() }',
    ].join('\n')
    expect(bodies(text)).toEqual(['{ ($e:expr) => { helper($e) }; }', '( () => [ helper() ] )', '[ () => ( helper() ) ]'])
  })

  it('does not count brackets inside strings, chars and comments, and tells a lifetime from a char', () => {
    const text = [
      'macro_rules! tricky {',
      '    ($x:expr) => {{',
      '        let _s: &\'static str = "}";',
      "        let _c = '}';",
      "        let _e = '\\'';",
      '        let _r = r#"}"#;',
      '        // }',
      '        /* } /* nested } */ } */',
      '        helper($x)',
      '    }};',
      '}',
      'fn outside() { helper(1) }',
    ].join('\n')
    const [body] = bodies(text)
    expect(body?.endsWith('    }};\n}')).toBe(true)
    expect(body).not.toContain('outside')
  })

  it('ignores macro_rules! written in comments and strings, and a name that only ends with it', () => {
    const text = [
      '/// macro_rules! doc { () => {} }',
      'const S: &str = "macro_rules! s { }";',
      'fn my_macro_rules() {}',
      'macro_rules! real { () => { helper() } }',
    ].join('\n')
    expect(bodies(text)).toEqual(['{ () => { helper() } }'])
  })

  it('an unclosed body runs to the end of the text', () => {
    const text = 'macro_rules! open { () => { helper()'
    expect(bodies(text)).toEqual(['{ () => { helper()'])
  })

  it('is the Rust facts’ unresolved text', () => {
    const facts = builtInFactsFor('rust')
    expect(facts.unresolvedText?.what).toBe('a macro_rules! body')
    expect(facts.unresolvedText?.spans('macro_rules! m { () => {} }')).toHaveLength(1)
    expect(builtInFactsFor('typescript').unresolvedText).toBeUndefined()
  })
})
