import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const schema = 'schema.graphql'
const books = 'operations/books.graphql'

/**
 * GraphQL (`fixtures/conformance-graphql`): a schema (`schema.graphql`: object types, an interface, descriptions) and
 * an operation document that queries it (`operations/books.graphql`); a query asking for a field the schema lacks.
 * No graphql-config of its own: the server reads the one codeseam writes for a root without one.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-graphql',
  main: books,
  definition: {
    use: { file: books, text: '    title', at: 'title' },
    declaration: { file: schema, text: '  title: String', at: 'title' },
  },
  typeDefinition: {
    use: { file: schema, text: 'author: Author', at: 'author' },
    type: { file: schema, text: 'type Author', at: 'Author' },
  },
  implementation: {
    type: { file: schema, text: 'interface Item', at: 'Item' },
    implementations: [{ file: schema, text: 'type Book implements Item', at: 'Book' }],
  },
  references: { declaration: { file: schema, text: 'type Author', at: 'Author' }, word: 'Author' },
  hover: { at: { file: books, text: '    title', at: 'title' }, includes: ['Book.title', 'String'] },
  completion: { at: { file: books, text: '      name', at: 'name' }, labels: ['name'] },
  documentSymbols: {
    file: schema,
    symbols: [
      { name: 'Query', kind: 'class' },
      { name: 'Book', kind: 'class' },
    ],
  },
  typeError: { file: 'operations/broken.graphql', text: 'missingField' },
  workspaceSymbol: { query: 'Author', name: 'Author', kind: 'class', file: schema },
}
