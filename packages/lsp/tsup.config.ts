import { libraryBuild } from '../../tsup.base.js'

export default libraryBuild({ entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } })
