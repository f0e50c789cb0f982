/**
 * A faithful fake of the `vscode` module for tests: VS Code's value classes and enums (types.ts), and
 * namespaces over one fake window (host.ts) that tests arrange and play language extensions in.
 */
export * from './types.js'
export { commands, extensions, languages, window, workspace } from './namespaces.js'
