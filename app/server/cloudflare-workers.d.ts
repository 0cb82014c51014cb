// The Worker's bindings. Only string variables and secrets are used; config.server.ts validates them.
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>
}
