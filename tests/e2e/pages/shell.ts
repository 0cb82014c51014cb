import { expect, type Locator, type Page } from '@playwright/test'

/** The frame around every page: header with the user menu, the main navigation, the footer. */
export class Shell {
  readonly banner
  readonly nav
  readonly main
  readonly footer
  readonly userMenuButton
  readonly menuToggle

  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.banner = page.getByRole('banner')
    this.nav = page.getByRole('navigation', { name: 'Main' })
    this.main = page.getByRole('main')
    this.footer = page.getByRole('contentinfo')
    this.userMenuButton = this.banner.getByRole('button', { name: 'User menu' })
    this.menuToggle = this.banner.getByRole('button', { name: /^(Show|Hide) menu$/ })
  }

  /**
   * Opens `path` as the signed-in user and waits until the page is interactive: the server HTML
   * already shows the user menu, which is enabled once the app has hydrated.
   */
  async open(path = '/'): Promise<void> {
    await this.page.goto(path)
    await expect(this.userMenuButton).toBeEnabled()
  }

  /** A link of the main navigation. */
  navLink(name: string | RegExp, options: { exact?: boolean } = {}): Locator {
    return this.nav.getByRole('link', { name, ...options })
  }

  /** Opens the user menu and returns it. */
  async openUserMenu(): Promise<Locator> {
    await this.userMenuButton.click()
    const menu = this.page.getByRole('menu')
    await expect(menu).toBeVisible()
    return menu
  }

  async closeUserMenu(): Promise<void> {
    await this.page.keyboard.press('Escape')
    await expect(this.page.getByRole('menu')).toBeHidden()
  }

  /** A company of the switcher in the (opened) user menu. */
  async company(name: string): Promise<Locator> {
    return (await this.openUserMenu()).getByRole('menuitemradio', { name })
  }

  async chooseCompany(name: string): Promise<void> {
    await (await this.company(name)).click()
  }

  async openSettings(): Promise<void> {
    await (await this.openUserMenu()).getByRole('menuitem', { name: 'Settings' }).click()
  }

  async signOut(): Promise<void> {
    await (await this.openUserMenu()).getByRole('menuitem', { name: 'Sign out' }).click()
  }

  /** The heading a page shows in place of its content when the person may not see it. */
  get accessDenied(): Locator {
    return this.page.getByRole('heading', { name: "You don't have access to this page" })
  }
}
