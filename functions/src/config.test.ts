import { describe, expect, it } from 'vitest'
import { appOrigins, ConfigError, mailConfig } from './config.ts'

describe('mailConfig', () => {
  it('reads SMTP_URL and MAIL_FROM', () => {
    expect(mailConfig({ SMTP_URL: 'smtp://127.0.0.1:1025', MAIL_FROM: ' Bulwark <no-reply@bulwark.example> ' })).toEqual({
      smtpUrl: 'smtp://127.0.0.1:1025',
      from: 'Bulwark <no-reply@bulwark.example>',
    })
  })

  it('fails clearly on a missing or wrong setting', () => {
    expect(() => mailConfig({ MAIL_FROM: 'x@y.example' })).toThrow(new ConfigError('SMTP_URL is not set'))
    expect(() => mailConfig({ SMTP_URL: 'https://mail.example', MAIL_FROM: 'x@y.example' })).toThrow(ConfigError)
    expect(() => mailConfig({ SMTP_URL: 'smtps://u:p@mail.example:465' })).toThrow(new ConfigError('MAIL_FROM is not set'))
  })
})

describe('appOrigins', () => {
  it('parses APP_ORIGINS, and fails when it is missing or wrong', () => {
    expect(appOrigins({ APP_ORIGINS: 'https://app.example,http://tauri.localhost' })).toEqual([
      'https://app.example',
      'http://tauri.localhost',
    ])
    expect(() => appOrigins({})).toThrow(ConfigError)
    expect(() => appOrigins({ APP_ORIGINS: 'https://app.example/path' })).toThrow(ConfigError)
  })
})
