// Bodies the callable protocol's own decoding fails on (deep nesting, `@type` wrappers): every
// callable answers them invalid-argument in the protocol's JSON, never INTERNAL; malformed JSON
// never gets a page with a stack trace. Raw POSTs, as a hostile caller sends them.
import { describe, expect, it } from 'vitest'
import type { CallableName } from '#domain/callables.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'

const FUNCTIONS_URL = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}/${PROJECT_ID}/us-central1`

function deeplyNested(depth: number): string {
  return `{"data":${'['.repeat(depth)}1${']'.repeat(depth)}}`
}

const hostile: [string, string][] = [
  ['very deep nesting', deeplyNested(5_000)],
  ['nesting past the guard', deeplyNested(40)],
  ['a Long wrapper that is not a number', '{"data":{"n":{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":"x"}}}'],
  ['an unknown @type wrapper', '{"data":{"@type":"type.googleapis.com/google.protobuf.Any","value":{}}}'],
]

async function post(name: string, body: string) {
  const response = await fetch(`${FUNCTIONS_URL}/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() }
}

// The guard sits in defineCallable, so callables of each audience stand for all of them (each
// starts its own function worker in the emulator).
const sampled: CallableName[] = ['sendSignInLink', 'handleSupportEmail', 'importFindingTemplates']

describe('the callable guard', () => {
  it.each(hostile)('answers %s invalid-argument', { timeout: 90_000 }, async (_label, body) => {
    for (const name of sampled) {
      const answer = await post(name, body)
      expect({ name, status: answer.status }).toEqual({ name, status: 400 })
      expect(JSON.parse(answer.text)).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } })
    }
  })

  // The functions' HTTP layer parses the body before any callable code runs: what it answers is
  // set by NODE_ENV=production (functions/.env.demo-sectest, as in production).
  it('answers malformed JSON with a bare 400, no stack trace', async () => {
    const answer = await post('sendSignInLink', '{"data": {"email": ')
    expect(answer.status).toBe(400)
    expect(answer.text).not.toMatch(/\bat \S+ \(|node_modules|SyntaxError|JSON\.parse/)
  })
})
