// The shared domain code is `#domain/*` everywhere. Node, Vite and TypeScript resolve it through
// the package.json "imports" of the importing package, and functions/ maps it to its build output
// (functions/lib). Tests run the sources, so they point it at app/domain for every package.
import type { AliasOptions } from 'vite'

const domainFolder = new URL('../../app/domain/', import.meta.url).pathname

export const domainAlias: AliasOptions = [{ find: /^#domain\//, replacement: domainFolder }]
