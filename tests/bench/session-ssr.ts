// `npm run bench:session`: server rendering of a guarded page for a signed-in user (the edge
// verifies the session cookie and reads the user's access and company from Firestore over REST,
// then renders the page with that data) against the same page for a visitor without a session,
// which needs neither; both from the production build in workerd with the emulators behind it.
// The edge keeps what it read for one sign-in for a few seconds (decisions 0023, 0029), so a person
// going from page to page pays for the reads about once in that window: as measured here.
// Note: emulator ID tokens are unsigned, so the signature check of production tokens (see
// `npm run bench:verify`) is not in these figures.
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { CONNECTIONS, DURATION_S, idTokenFor, measure, ratio, row, warmUp } from './page-load.ts'
import { withStack } from './preview-server.ts'

const PAGE = '/reports'

await withStack(async (baseUrl) => {
  const account = demoAccount('viewer@acme.example')
  const cookie = `__Host-session=${await idTokenFor(account.uid)}`
  const url = `${baseUrl}${PAGE}`
  await warmUp(url, {}, 'You must be signed in')
  await warmUp(url, { cookie }, account.email)
  const guest = await measure(url, {})
  const member = await measure(url, { cookie })
  console.log(`\n${PAGE} in workerd, ${CONNECTIONS} connections, ${DURATION_S}s each`)
  console.log(row('no session', guest))
  console.log(row('signed in (+ edge data)', member))
  console.log(ratio('signed-in/no-session', member, guest))
})
