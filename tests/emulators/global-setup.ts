// Emulator tests need the addresses firebase emulators:exec exports; without them they would talk
// to nothing (or, worse, to a real project).
export default function assertEmulatorEnvironment(): void {
  const missing = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter((name) => !process.env[name])
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} unset: run these tests with \`npm run test:emulators\`.`)
  }
}
