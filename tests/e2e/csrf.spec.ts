import { expect, test } from './fixtures'

test('server functions refuse calls from other sites', async ({ request }) => {
  const call = (headers: Record<string, string>) =>
    request.post('/_serverFn/any-function', { headers: { 'Content-Type': 'application/json', ...headers }, data: '{}' })

  const crossSite = await call({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://attacker.example' })
  expect(crossSite.status()).toBe(403)
  const noOrigin = await call({})
  expect(noOrigin.status()).toBe(403)

  // The same call from the site itself gets past the check (and fails later, for the unknown function).
  const sameOrigin = await call({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://127.0.0.1:3000' })
  expect(sameOrigin.status()).not.toBe(403)
})
