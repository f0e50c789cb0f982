import type { FakeExtension } from '../fake-vscode/host.js'

/** VS Code's built-in TypeScript language contributions (extensions/typescript-basics), as extensions.all shows them. */
export const typescriptBasics: FakeExtension = {
  id: 'vscode.typescript',
  packageJSON: {
    contributes: {
      languages: [
        { id: 'typescript', extensions: ['.ts', '.cts', '.mts'] },
        { id: 'typescriptreact', extensions: ['.tsx'] },
      ],
    },
  },
}

/**
 * What VS Code's TypeScript support does not provide (no declaration or type-hierarchy provider), so an
 * adapter configured for it does not ask VS Code for them: declaration is not claimed, and the type
 * hierarchy is derived (rfc/0005, addendum "derived operations").
 */
export const notProvidedByTypeScript = ['declaration', 'prepareTypeHierarchy', 'supertypes', 'subtypes'] as const
