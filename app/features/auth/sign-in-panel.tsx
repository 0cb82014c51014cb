import styled from 'styled-components'
import { safeReturnPath, SIGN_IN_PATH, signInMessages, VIA_DESKTOP } from '#domain/sign-in.ts'
import { EmailLinkForm, type FormOutcome } from './email-link-form'
import { emailForSignIn } from './email-for-sign-in'
import { returnPath } from './return-path'
import { outcomeOf } from './sign-in-texts'
import { notify } from '~/ui/notifications/notifications'
import { surface } from '~/ui/surface'

const Panel = styled.section`
  width: 100%;
  max-width: 400px;
  padding: 28px;
  ${surface}

  h2 {
    font-size: 20px;
  }
  p {
    color: var(--color-text-muted);
    font-size: 14px;
  }
`

async function requestLink(email: string, returnTo: string | undefined): Promise<FormOutcome> {
  const back = safeReturnPath(returnTo)
  const auth = await import('./auth-client').catch(() => null)
  try {
    if (!auth) throw new Error('The sign-in code could not be loaded')
    const { isDesktopApp } = await import('~/platform/desktop-links')
    const response = await auth.requestSignInLink({
      email,
      // The desktop app's links land on the sign-in page itself, marked so that a browser opening
      // the emailed link hands it to the app; the web's land on the site.
      ...(isDesktopApp() ? { url: `${window.location.origin}${SIGN_IN_PATH}`, via: VIA_DESKTOP } : { url: window.location.origin }),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      // In the link too, for a link opened in another browser.
      ...(back ? { next: back } : {}),
    })
    if (!response.success) return outcomeOf(false, response.message)
    // The link must be completed by the browser that asked for it (see the Welcome dialog).
    emailForSignIn.set(email)
    returnPath.keep(back)
    return outcomeOf(true, response.message)
  } catch (error) {
    const text = auth ? auth.signInErrorMessage(error) : signInMessages.cannotSend
    notify({ tone: 'error', title: 'Sign-in link not sent', message: text })
    return outcomeOf(false, text)
  }
}

/** `returnTo`: the page asked for before signing in, where the emailed link leads back to. */
export function SignInPanel({ returnTo }: { returnTo?: string }) {
  const back = safeReturnPath(returnTo)
  return (
    <Panel aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in</h2>
      <p>Enter your work email and we will send you a link to sign in. No password needed.</p>
      {back && (
        <p data-testid="return-after-sign-in">
          The link brings you back to <code>{back}</code>.
        </p>
      )}
      <EmailLinkForm onSubmit={(email) => requestLink(email, returnTo)} />
    </Panel>
  )
}
