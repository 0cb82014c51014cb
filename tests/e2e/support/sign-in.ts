import type { Page } from '@playwright/test'
import { signInMessages } from '#domain/sign-in.ts'
import { expect } from '../fixtures'
import { resetSignInRateLimits } from './admin'
import { nextMail, signInLink } from './inbox'

/** Asks for a sign-in link on Home and returns the link from the email. */
export async function requestLink(page: Page, email: string): Promise<string> {
  await resetSignInRateLimits()
  const before = Date.now()
  await page.goto('/')
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByRole('button', { name: 'Login with Link' }).click()
  // The first call after the stack starts also starts the functions: allow for that.
  await expect(page.getByRole('status').filter({ hasText: signInMessages.sent })).toBeVisible({ timeout: 20_000 })
  return signInLink(await nextMail(email, before))
}

/** Signs in through the emailed link, as a person does, and waits for the signed-in home. */
export async function signIn(page: Page, email: string): Promise<void> {
  const link = await requestLink(page, email)
  await page.goto(link)
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('banner').getByRole('button', { name: 'User menu' })).toBeVisible()
}

/** Opens the user menu in the header and returns it. */
export async function openUserMenu(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'User menu' }).click()
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  return menu
}
