// The attack-surface inventory that httpx and naabu results build: one asset per domain, subdomain,
// IP and certificate, their ports and technologies merged across records.
import type { ParsedAsset, ParsedPort } from './parsed-scan.ts'
import { PARSE_LIMITS } from './parsed-scan.ts'

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

export const isIp = (value: string) => IPV4.test(value) || (value.includes(':') && /^[0-9a-f:.]+$/i.test(value))

/**
 * A name's asset type: an IP, a domain (two labels, example.org) or a subdomain with its domain as
 * parent. Suffixes of more than one label (co.uk) are not known, so www.example.co.uk's parent
 * reads example.co.uk only when the name has four labels or more: a conservative reading.
 */
export function nameAsset(name: string): { type: 'ip' | 'domain' | 'subdomain'; value: string; parent?: string } {
  const value = name.trim().toLowerCase().replace(/\.$/, '')
  if (isIp(value)) return { type: 'ip', value }
  const labels = value.split('.')
  if (labels.length <= 2) return { type: 'domain', value }
  return { type: 'subdomain', value, parent: labels.slice(-2).join('.') }
}

export class Inventory {
  private readonly assets = new Map<string, ParsedAsset>()
  dropped = 0

  add(asset: ParsedAsset): ParsedAsset | null {
    const key = `${asset.type}\u0000${asset.value}`
    const known = this.assets.get(key)
    if (!known) {
      if (this.assets.size >= PARSE_LIMITS.assets) {
        this.dropped++
        return null
      }
      this.assets.set(key, {
        ...asset,
        ports: asset.ports ? [...asset.ports] : undefined,
        technologies: asset.technologies ? [...asset.technologies] : undefined,
      })
      return this.assets.get(key) ?? null
    }
    for (const port of asset.ports ?? []) addPort(known, port)
    for (const tech of asset.technologies ?? []) if (!known.technologies?.includes(tech)) (known.technologies ??= []).push(tech)
    known.parent ??= asset.parent
    if (asset.notAfter !== undefined) known.notAfter = asset.notAfter
    known.issuer ??= asset.issuer
    return known
  }

  /** A host name or IP, with its domain when it is a subdomain. */
  addName(name: string, extra: Partial<ParsedAsset> = {}) {
    const asset = nameAsset(name)
    if (!asset.value) return
    if (asset.parent) this.add({ type: 'domain', value: asset.parent })
    this.add({ ...asset, ...extra })
  }

  list(): ParsedAsset[] {
    return [...this.assets.values()]
  }
}

function addPort(asset: ParsedAsset, port: ParsedPort) {
  const ports = (asset.ports ??= [])
  const known = ports.find((p) => p.port === port.port && p.protocol === port.protocol)
  if (!known) ports.push(port)
  else {
    known.service ??= port.service
    known.product ??= port.product
  }
}
