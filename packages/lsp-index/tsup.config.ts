import { libraryBuild } from '../../tsup.base.js'

export default libraryBuild()
