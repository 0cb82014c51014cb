// Entry point the Functions emulator and deploys load. Callables and triggers are exported from
// here as they are added (sendSignInLink, handleSignIn, ...).
import { setGlobalOptions } from 'firebase-functions/v2'

// The spec's default region; callers use it unless a function says otherwise.
setGlobalOptions({ region: 'us-central1' })
