// `node --import <this file>` (or NODE_OPTIONS): appends the URL of every file module the process loads to
// $CODESEAM_MODULE_LOG, so a test can tell which chunks of the bundled CLI a run read.
import { register } from 'node:module'

if (process.env.CODESEAM_MODULE_LOG) register('./hook.mjs', import.meta.url)
