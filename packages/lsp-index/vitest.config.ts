import { packageProject } from '../../vitest.project.js'

export default packageProject()
