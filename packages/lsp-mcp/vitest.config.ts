import { packageProject, realServerDeadlines } from '../../vitest.project.js'

export default packageProject(realServerDeadlines)
