// Emulator tests need the addresses firebase emulators:exec exports; without them they would talk
// to nothing (or, worse, to a real project). The search emulator runs here, on the address the
// functions' settings name (functions/.env.demo-sectest), for as long as the tests do.
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'
import { startSearchEmulator } from '../../emulators/search/search-emulator.ts'

export default async function setup(): Promise<() => Promise<void>> {
  const missing = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter((name) => !process.env[name])
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} unset: run these tests with \`npm run test:emulators\`.`)
  }
  const search = await startSearchEmulator(SEARCH_EMULATOR_DEFAULTS)
  return () => search.close()
}
