// Options every function shares. Modules that define functions import this first, so the options
// are set before any function is declared.
import { setGlobalOptions } from 'firebase-functions/v2'

// Firebase's default region; clients call us-central1 unless told otherwise.
export const REGION = 'us-central1'

setGlobalOptions({ region: REGION })
