// First-load JavaScript of a page: the module scripts its server HTML loads or preloads, plus every
// module they import statically, measured as gzip bytes of the built files.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const scriptUrls = (html: string): string[] => {
  const urls = new Set<string>()
  for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) urls.add(match[1]!)
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]!)
  return [...urls].filter((url) => url.startsWith('/'))
}

// Static imports as the bundler writes them: `import{…}from"./x.js"` and `import"./x.js"`.
const staticImports = (code: string): string[] =>
  [...code.matchAll(/\bimport\s*(?:[^"'`()]*?\bfrom\s*)?["']([^"']+\.js)["']/g)].map((m) => m[1]!)

export interface FirstLoad {
  files: string[]
  gzipBytes: number
}

/** `clientDir` is the client build (dist/client); `html` the page's server-rendered document. */
export function firstLoadJs(html: string, clientDir: string): FirstLoad {
  const seen = new Set<string>()
  const queue = scriptUrls(html).map((url) => path.join(clientDir, url))
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const specifier of staticImports(code)) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier))
      else if (specifier.startsWith('/')) queue.push(path.join(clientDir, specifier))
    }
  }
  const files = [...seen].sort()
  const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0)
  return { files: files.map((file) => path.relative(clientDir, file)), gzipBytes }
}
