// Stands in for `cloudflare:workers` outside workerd: no bindings at all.
export const env: Record<string, unknown> = {}
