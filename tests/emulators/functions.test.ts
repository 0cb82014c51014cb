import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CALLABLE_NAMES } from '#domain/callables.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, nodeBinary, PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'

// The functions the codebase exports: every callable of the registry, and each trigger and HTTP endpoint added here.
const TRIGGERS = [
  'gateSignUp',
  'syncTemplateSearch',
  'syncFindingSearch',
  'sweepFindings',
  'sweepVault',
  'reviewVaultLinkFiles',
  'reviewVaultRequestFiles',
  'syncUserClaims',
  'sweepAgentJobs',
  'refreshVulnIntelDaily',
  'agentApi',
  'dastApi',
  'clientApi',
  'sendWebhookDelivery',
  'sweepWebhookDeliveries',
]
const EXPECTED_ENDPOINTS: string[] = [...CALLABLE_NAMES, ...TRIGGERS].sort()

interface BackendInfo {
  directory: string
  functionTriggers: unknown[]
}

describe('functions codebase', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'functions-manifest-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('is served by the functions emulator from functions/', async () => {
    const host = process.env.FUNCTIONS_EMULATOR_HOST ?? `${EMULATOR_HOST}:${EMULATOR_PORTS.functions}`
    const response = await fetch(`http://${host}/backends`)
    expect(response.ok).toBe(true)
    const { backends } = (await response.json()) as { backends: BackendInfo[] }
    expect(backends.map((b) => path.resolve(b.directory))).toEqual([path.join(ROOT, 'functions')])
  })

  // The emulator and deploys both discover functions this way; a module that throws on load fails here.
  it('loads and declares exactly the expected endpoints', () => {
    const manifestPath = path.join(scratch, 'manifest.json')
    const result = spawnSync(nodeBinary(), [path.join(ROOT, 'node_modules', 'firebase-functions', 'lib', 'bin', 'firebase-functions.js')], {
      cwd: path.join(ROOT, 'functions'),
      env: {
        ...process.env,
        GCLOUD_PROJECT: PROJECT_ID,
        FIREBASE_CONFIG: JSON.stringify({ projectId: PROJECT_ID }),
        FUNCTIONS_CONTROL_API: 'true',
        FUNCTIONS_MANIFEST_OUTPUT_PATH: manifestPath,
      },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(result.status, result.stderr).toBe(0)
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { endpoints: Record<string, { callableTrigger?: object }> }
    expect(Object.keys(manifest.endpoints).sort()).toEqual(EXPECTED_ENDPOINTS)
    // The registry's names are the callables, the triggers are not.
    const callable = Object.entries(manifest.endpoints).flatMap(([name, endpoint]) => (endpoint.callableTrigger ? [name] : []))
    expect(callable.sort()).toEqual([...CALLABLE_NAMES].sort())
  })
})
