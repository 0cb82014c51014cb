// A local service could not open its port: one line for people, naming the setting that moves it.
// Shared by the mail catcher and the search emulator, which the dev launcher starts in-process.

export class PortListenError extends Error {
  code: string;
  port: number;
  constructor(message: string, code: string, port: number) {
    super(message);
    this.name = 'PortListenError';
    this.code = code;
    this.port = port;
  }
}

/** `portVariable` and `hostVariable` are the environment variables that move the service. */
export function portListenError(
  err: NodeJS.ErrnoException,
  host: string,
  port: number,
  settings: { portVariable: string; hostVariable: string },
): PortListenError {
  const code = err.code ?? 'UNKNOWN';
  const { portVariable, hostVariable } = settings;
  const message =
    code === 'EADDRINUSE'
      ? `Port ${port} is in use: stop what uses it or set ${portVariable}`
      : code === 'EACCES'
        ? `Port ${port} needs more privileges than this process has: set ${portVariable} to another port`
        : code === 'EADDRNOTAVAIL'
          ? `Address ${host} is not on this machine: set ${hostVariable} to a local address`
          : `Cannot listen on ${host}:${port} (${code}): set ${portVariable} to another port`;
  return new PortListenError(message, code, port);
}
