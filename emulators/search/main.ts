// `node --experimental-strip-types emulators/search/main.ts`: the search emulator on its own, until
// SIGINT/SIGTERM. Env: SEARCH_PORT (7700), SEARCH_HOST (127.0.0.1), SEARCH_APP_ID, SEARCH_ADMIN_KEY,
// SEARCH_SEARCH_KEY (defaults in config.ts).
import { stopOnSignals } from '../local-service.ts'
import { searchEmulatorConfigFromEnv } from './config.ts'
import { startSearchEmulator } from './search-emulator.ts'
import type { SearchEmulator } from './search-emulator.ts'

let emulator: SearchEmulator
let appId: string
try {
  const config = searchEmulatorConfigFromEnv()
  appId = config.appId
  emulator = await startSearchEmulator(config)
} catch (err) {
  console.error(`Search emulator: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
}

stopOnSignals(() => emulator.close())
// printed once the signal handlers are in place: whoever waits for this line may stop us at once
console.log(`Search emulator\n  URL     ${emulator.url}\n  App ID  ${appId}`)
