// What the dev server never hands out through /@fs, even inside the project: secrets, the local
// stack's logs and state (they hold sign-in links and tokens), and git's database. Vite's own
// defaults are repeated because setting the list replaces them.
export const DEV_SERVER_DENY = [
  '.env',
  '.env.*',
  '*.{crt,pem}',
  '**/.git/**',
  '**/.local/**',
  '**/.wrangler/**',
  '**/.dev.vars*',
  '**/functions/.env.*',
]
