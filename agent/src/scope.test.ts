// The agent's guard against real DNS answers from a server this test starts on loopback: a name in
// a company's scope proves nothing about where it points, so every address it resolves to is
// judged, once per job, and the answer is pinned (a changed answer later changes nothing).
// Nothing here connects anywhere: the guard only resolves and decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScopeEntry } from '#domain/scan-scope.ts'
import { startDnsServer, type DnsServer } from '../../tests/fixtures/dns-server/server.ts'
import { dnsResolver, TargetGuard } from './scope.ts'

let dns: DnsServer
const SCOPE: ScopeEntry[] = [
  { kind: 'domain', value: 'acme.example' },
  { kind: 'ip', value: '127.0.0.1' },
  { kind: 'cidr', value: '10.20.0.0/16' },
]
const guard = (loopbackOnly = false, scope = SCOPE) => new TargetGuard(scope, { loopbackOnly, resolve: dnsResolver([dns.address]) })

beforeAll(async () => {
  dns = await startDnsServer({
    'metadata.acme.example': ['169.254.169.254'],
    'mapped.acme.example': ['::ffff:169.254.169.254'],
    'intranet.acme.example': ['10.0.0.5'],
    'lab.acme.example': ['10.20.3.4'],
    'www.acme.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'split.acme.example': ['93.184.215.14', '127.0.0.1'],
    'local.acme.example': ['127.0.0.1'],
    'other-loopback.acme.example': ['127.0.0.2'],
    'rebind.acme.example': ['93.184.215.14'],
  })
})
afterAll(() => dns.close())

describe('the agent’s target guard', () => {
  it('refuses a name in scope that resolves to the cloud metadata address, or to a private one, in words', async () => {
    expect(await guard().check('http://metadata.acme.example/latest/meta-data/')).toEqual({
      target: 'http://metadata.acme.example/latest/meta-data/',
      allowed: false,
      reason: expect.stringMatching(/metadata\.acme\.example resolves to 169\.254\.169\.254, which is a link-local .*169\.254\.0\.0\/16/),
    })
    expect((await guard().check('mapped.acme.example')).reason).toMatch(/link-local/)
    expect((await guard().check('https://intranet.acme.example/')).reason).toMatch(/10\.0\.0\.5, which is a private-use address/)
  })

  it('allows a name whose every address is public or named by the scope, and pins what it found', async () => {
    const g = guard()
    expect(await g.check('https://WWW.acme.example/login')).toEqual({ target: 'https://www.acme.example/login', allowed: true })
    expect(await g.check('lab.acme.example')).toEqual({ target: 'lab.acme.example', allowed: true })
    expect(await g.pins()).toEqual([
      { host: 'www.acme.example', addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] },
      { host: 'lab.acme.example', addresses: ['10.20.3.4'] },
    ])
  })

  it('refuses a name if any one of its addresses is refused', async () => {
    expect((await guard(false, [{ kind: 'domain', value: 'acme.example' }]).check('split.acme.example')).reason).toMatch(
      /resolves to 127\.0\.0\.1, which is a loopback address/,
    )
  })

  it('resolves a name once per job: an answer changed afterwards (DNS rebinding) moves nothing', async () => {
    const g = guard()
    expect((await g.check('http://rebind.acme.example/')).allowed).toBe(true)
    const asked = dns.asked.get('rebind.acme.example')
    dns.answer('rebind.acme.example', ['169.254.169.254'])
    expect(await g.host('rebind.acme.example')).toEqual({ addresses: ['93.184.215.14'] })
    expect(dns.asked.get('rebind.acme.example')).toBe(asked)
    // A new job asks again and sees the new answer.
    expect((await guard().check('http://rebind.acme.example/')).reason).toMatch(/link-local/)
  })

  it('in loopback-only mode allows the loopback addresses the scope names, and nothing else', async () => {
    expect(await guard(true).check('http://local.acme.example:8765/')).toMatchObject({ allowed: true })
    expect(await guard(true).check('http://127.0.0.1:8765/')).toMatchObject({ allowed: true })
    expect((await guard(true).check('http://other-loopback.acme.example/')).reason).toMatch(
      /127\.0\.0\.2, which is a loopback address .* does not list/,
    )
    expect((await guard(true).check('www.acme.example')).reason).toMatch(
      /resolves to 93\.184\.215\.14, which is not a loopback address; this agent scans loopback only/,
    )
  })

  it('refuses targets outside the scope, read differently by other parsers, or naming nothing that resolves', async () => {
    expect((await guard().check('http://evil.example/')).reason).toMatch(/outside the job's scope/)
    expect((await guard().check('http://www.acme.example\\@169.254.169.254/')).reason).toMatch(/reads the same to every URL parser/)
    expect((await guard().check('http://nowhere.acme.example/')).reason).toBe('nowhere.acme.example does not resolve')
  })
})
