// `npm run bench:reports`: the server-rendered DAST report of Acme (the full demo year: 10,000 DAST
// findings) for a client viewer of Acme, whose first paint already holds the figures read at the edge
// with their token, against the bare page of the same build (home, signed out); one run, ratios.
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { CONNECTIONS, DURATION_S, idTokenFor, measure, ratio, row, warmUp } from './page-load.ts'
import { withStack } from './preview-server.ts'

await withStack(async (baseUrl) => {
  const account = demoAccount('viewer@acme.example')
  const cookie = `__Host-session=${await idTokenFor(account.uid)}`
  const bareUrl = `${baseUrl}/`
  const reportUrl = `${baseUrl}/reports/dast`
  await warmUp(bareUrl, {}, 'Login with Link')
  // "Key figures" is the heading above the KPI cards, rendered only once the edge read the figures.
  await warmUp(reportUrl, { cookie }, 'Key figures')
  const bare = await measure(bareUrl, {})
  const report = await measure(reportUrl, { cookie })
  console.log(`\nworkerd, ${CONNECTIONS} connections, ${DURATION_S}s each`)
  console.log(row('home, signed out (bare)', bare))
  console.log(row('/reports/dast, Acme viewer', report))
  console.log(ratio('report/bare', report, bare))
})
