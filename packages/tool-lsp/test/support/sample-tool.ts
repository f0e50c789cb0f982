import { Schema } from 'effect'

import { defineTool, FirstMatchInput, PositiveInt, ResolvedTargetOutput, TargetInput } from '../../src/index.js'

interface Node {
  readonly name: string
  readonly children: ReadonlyArray<Node>
}

/** A recursive output node, so exporters must carry definitions. */
const NodeSchema: Schema.Codec<Node> = Schema.Struct({
  name: Schema.String,
  children: Schema.Array(Schema.suspend((): Schema.Codec<Node> => NodeSchema)),
}).annotate({ identifier: 'Node' })

/** A tool shaped like the real ones (target, enum, bounded ints, nested optional object), answering locally. */
export const sampleTool = defineTool({
  name: 'sample_echo',
  title: 'Echo',
  description: 'Echoes its arguments. Use it in tests only.',
  input: Schema.Struct({
    target: TargetInput,
    mode: Schema.Literals(['one', 'two']),
    depth: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4 }))),
    limit: Schema.optional(PositiveInt),
    name: Schema.optional(Schema.String.check(Schema.isMinLength(1))),
    firstMatch: FirstMatchInput,
  }),
  output: Schema.Struct({
    mode: Schema.String,
    depth: Schema.Int,
    ratio: Schema.Finite,
    target: Schema.optional(ResolvedTargetOutput),
    tree: NodeSchema,
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async execute(input) {
    return {
      mode: input.mode,
      depth: input.depth ?? 1,
      ratio: 0.5,
      tree: { name: input.target.path, children: [{ name: 'leaf', children: [] }] },
    }
  },
  summary: (result) => `${result.mode} at depth ${result.depth}`,
  render: (result) => `mode ${result.mode}\n`.repeat(result.depth * 100),
})
