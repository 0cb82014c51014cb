import { expect, type Page } from '@playwright/test'
import { signInMessages } from '#domain/sign-in.ts'
import { resetSignInRateLimits } from '../support/admin'
import { hasSignInLink, nextMailWhere, signInLink } from '../support/inbox'

/** The sign-in panel on Home, for a visitor. */
export class SignInPanel {
  readonly email
  readonly submit
  readonly alert

  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.email = page.getByRole('textbox', { name: 'Email' })
    this.submit = page.getByRole('button', { name: 'Login with Link' })
    this.alert = page.getByRole('alert')
  }

  async goto(): Promise<void> {
    await this.page.goto('/')
  }

  /** Asks for a sign-in link (from Home, or `from`: Home with a page to return to) and returns the link from the email. */
  async requestLink(email: string, from = '/'): Promise<string> {
    await resetSignInRateLimits()
    const before = Date.now()
    await this.page.goto(from)
    await this.email.fill(email)
    await this.submit.click()
    // The stack starts its functions before it says it is ready; a busy machine still takes its time.
    await expect(this.page.getByRole('status').filter({ hasText: signInMessages.sent })).toBeVisible({ timeout: 60_000 })
    // The person may be sent other mail meanwhile (a mention's notification).
    return signInLink(await nextMailWhere(email, before, hasSignInLink))
  }

  /** Signs in through the emailed link, as a person does, and waits for the signed-in home. */
  async signIn(email: string): Promise<void> {
    const link = await this.requestLink(email)
    await this.page.goto(link)
    // Completing calls handleSignIn, whose first call starts its own function instance.
    await expect(this.page).toHaveURL('/', { timeout: 20_000 })
    await expect(this.page.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
  }
}
