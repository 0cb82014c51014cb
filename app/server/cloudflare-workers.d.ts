// The Worker's bindings. Only string variables and secrets are used; config.server.ts validates them.
// DurableObject: the base class of the one Durable Object, the vault's file ledger (decision 0035).
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>

  export interface DurableObjectStorage {
    get<T>(key: string): Promise<T | undefined>
    put<T>(key: string, value: T): Promise<void>
    deleteAll(): Promise<void>
    setAlarm(scheduledTime: number): Promise<void>
    deleteAlarm(): Promise<void>
  }
  export interface DurableObjectState {
    readonly storage: DurableObjectStorage
  }
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState
    protected readonly env: Env
    constructor(ctx: DurableObjectState, env: Env)
  }
}
