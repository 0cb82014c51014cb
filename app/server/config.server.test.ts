import { describe, expect, it } from 'vitest'
import { DEVELOPMENT_SESSION_SECRET, parseServerConfig } from './config.server'

const local = {
  FIREBASE_PROJECT_ID: 'demo-sectest',
  FIREBASE_API_KEY: 'demo-api-key',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  FUNCTIONS_EMULATOR_HOST: '127.0.0.1:5001',
  SESSION_SECRET: DEVELOPMENT_SESSION_SECRET,
}
const production = {
  FIREBASE_PROJECT_ID: 'bulwark-prod',
  FIREBASE_API_KEY: 'AIza-key',
  SESSION_SECRET: 'x'.repeat(48),
  APP_ORIGINS: 'https://app.bulwark.example',
}

describe('parseServerConfig', () => {
  it('uses the emulators for a demo project, with Google’s JWKS by default', () => {
    const config = parseServerConfig(local)
    expect(config.emulators).toEqual({ auth: '127.0.0.1:9099', firestore: undefined, functions: '127.0.0.1:5001' })
    expect(config.jwksUrl).toBe('https://www.googleapis.com/robot/v1/metadata/jwk/securetoken@system.gserviceaccount.com')
  })

  it('never uses emulators for a real project, even when a host is set', () => {
    expect(parseServerConfig({ ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).emulators).toBeNull()
  })

  it('fails loudly, naming the setting, when a secret is missing, short or the development one', () => {
    const { SESSION_SECRET: _, ...withoutSecret } = production
    expect(() => parseServerConfig(withoutSecret)).toThrow(/SESSION_SECRET/)
    expect(() => parseServerConfig({ ...production, SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET must be at least 32/)
    expect(() => parseServerConfig({ ...production, SESSION_SECRET: DEVELOPMENT_SESSION_SECRET })).toThrow(/development value/)
    expect(() => parseServerConfig({ ...production, FIREBASE_API_KEY: '' })).toThrow(/FIREBASE_API_KEY/)
    expect(() => parseServerConfig({ ...production, FIREBASE_PROJECT_ID: 'Not A Project' })).toThrow(/FIREBASE_PROJECT_ID/)
  })

  it('takes the primary colours of the deployment, and refuses anything but #rrggbb', () => {
    expect(parseServerConfig(production).brandColors).toEqual({ light: null, dark: null })
    expect(parseServerConfig({ ...production, PRIMARY_COLOR: '#0b7a4b', PRIMARY_COLOR_DARK: '#5fd39a' }).brandColors).toEqual({
      light: '#0b7a4b',
      dark: '#5fd39a',
    })
    expect(() => parseServerConfig({ ...production, PRIMARY_COLOR: 'red;}body{display:none' })).toThrow(/PRIMARY_COLOR must be a colour/)
    expect(() => parseServerConfig({ ...production, PRIMARY_COLOR_DARK: '#fff' })).toThrow(/PRIMARY_COLOR_DARK must be a colour/)
  })

  it('takes only Google’s JWKS for a real project, any for a demo one', () => {
    expect(() => parseServerConfig({ ...production, FIREBASE_JWKS_URL: 'https://evil.example/jwks' })).toThrow(
      /FIREBASE_JWKS_URL must be Google/,
    )
    expect(() => parseServerConfig({ ...production, FIREBASE_JWKS_URL: 'http://www.googleapis.com/x' })).toThrow(/FIREBASE_JWKS_URL/)
    expect(parseServerConfig({ ...local, FIREBASE_JWKS_URL: 'http://127.0.0.1:9/jwks' }).jwksUrl).toBe('http://127.0.0.1:9/jwks')
  })

  it('needs the app origins of a real project, and takes them as bare origins only', () => {
    const { APP_ORIGINS: _, ...withoutOrigins } = production
    expect(() => parseServerConfig(withoutOrigins)).toThrow(/APP_ORIGINS is required/)
    expect(() => parseServerConfig({ ...production, APP_ORIGINS: 'https://app.example/path' })).toThrow(/APP_ORIGINS has/)
    expect(parseServerConfig(production).appOrigins).toEqual(['https://app.bulwark.example'])
    expect(parseServerConfig(local).appOrigins).toBeNull()
  })
})
