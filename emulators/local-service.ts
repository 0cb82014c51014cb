// What the local HTTP services (the mail catcher and the search emulator) share: the one-line
// error of a port that cannot be opened, the guard against pages of other domains (DNS rebinding),
// and stopping on Ctrl-C when run on their own.
import { isIP } from 'node:net'

export class PortListenError extends Error {
  code: string
  port: number
  constructor(message: string, code: string, port: number) {
    super(message)
    this.name = 'PortListenError'
    this.code = code
    this.port = port
  }
}

/** `portVariable` and `hostVariable` are the environment variables that move the service. */
export function portListenError(
  err: NodeJS.ErrnoException,
  host: string,
  port: number,
  settings: { portVariable: string; hostVariable: string },
): PortListenError {
  const code = err.code ?? 'UNKNOWN'
  const { portVariable, hostVariable } = settings
  const message =
    code === 'EADDRINUSE'
      ? `Port ${port} is in use: stop what uses it or set ${portVariable}`
      : code === 'EACCES'
        ? `Port ${port} needs more privileges than this process has: set ${portVariable} to another port`
        : code === 'EADDRNOTAVAIL'
          ? `Address ${host} is not on this machine: set ${hostVariable} to a local address`
          : `Cannot listen on ${host}:${port} (${code}): set ${portVariable} to another port`
  return new PortListenError(message, code, port)
}

/** A host as it stands in a URL: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host
}

/** localhost, *.localhost and loopback addresses. */
export function isLoopbackName(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '')
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare)
}

/** DNS-rebinding guard: a page on another domain resolved to this machine must not reach the data. */
export function isAllowedHost(hostHeader: string | undefined, boundHost: string): boolean {
  if (!hostHeader) return true // HTTP/1.0 clients; browsers always send Host
  let hostname: string
  try {
    hostname = new URL(`http://${hostHeader}`).hostname
  } catch {
    return false
  }
  return isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 || isLoopbackName(hostname) || hostname === boundHost
}

/**
 * Closes the service on SIGINT/SIGTERM and exits; a second signal exits at once. Call it before
 * printing the ready line: whoever waits for that line may stop the process right away.
 */
export function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143)
    stopping = true
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
