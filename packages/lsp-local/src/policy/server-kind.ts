import * as nodePath from 'node:path'

import type { ServerProfile } from './profiles.js'

/** The built-in server families whose workspace-driven behaviour is known. */
export type ServerKind = 'native-typescript' | 'typescript-language-server' | 'pyright' | 'clangd' | 'other'

/** Which family a profile belongs to: by built-in id, else by the shape of its command line. */
export function serverKind(profile: Pick<ServerProfile, 'id' | 'command' | 'args'>): ServerKind {
  const base = nodePath.basename(profile.command)
  const script = profile.args.find((a) => !a.startsWith('-')) ?? ''
  if (profile.id === 'typescript' || ((base === 'tsc' || base === 'tsgo') && profile.args.includes('--lsp'))) return 'native-typescript'
  if (
    profile.id === 'typescript-language-server' ||
    base === 'typescript-language-server' ||
    /typescript-language-server[\\/]lib[\\/]cli\.mjs$/.test(script)
  )
    return 'typescript-language-server'
  if (profile.id === 'pyright' || /^(based)?pyright-langserver$/.test(base) || /(based)?pyright[\\/]langserver\.index\.js$/.test(script))
    return 'pyright'
  if (profile.id === 'clangd' || /^clangd(-\d+)?$/.test(base)) return 'clangd'
  return 'other'
}
