import { describe, expect, it } from 'vitest'
import { jobTargetAllowed, type JobScopeEntry } from './agent-scope.ts'

describe('the fleet’s scope check', () => {
  const scope: JobScopeEntry[] = [
    { kind: 'ip', value: '127.0.0.1' },
    { kind: 'domain', value: 'acme.example' },
    { kind: 'cidr', value: '10.1.0.0/16' },
  ]
  it('allows targets within an entry and refuses the rest', () => {
    expect(jobTargetAllowed('http://127.0.0.1:8765/', scope)).toBe(true)
    expect(jobTargetAllowed('https://www.acme.example/login', scope)).toBe(true)
    expect(jobTargetAllowed('10.1.200.3', scope)).toBe(true)
    expect(jobTargetAllowed('http://127.0.0.2/', scope)).toBe(false)
    expect(jobTargetAllowed('https://acme.example.evil.test/', scope)).toBe(false)
    expect(jobTargetAllowed('10.2.0.1', scope)).toBe(false)
    expect(jobTargetAllowed('not a url://', scope)).toBe(false)
  })
})
