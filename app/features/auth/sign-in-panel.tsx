import styled from 'styled-components'
import { SIGN_IN_PATH, signInMessages } from '#domain/sign-in.ts'
import { EmailLinkForm, type FormOutcome } from './email-link-form'
import { emailForSignIn } from './email-for-sign-in'
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

async function requestLink(email: string): Promise<FormOutcome> {
  const auth = await import('./auth-client').catch(() => null)
  try {
    if (!auth) throw new Error('The sign-in code could not be loaded')
    const { isDesktopApp } = await import('~/platform/desktop-links')
    const response = await auth.requestSignInLink({
      email,
      // The desktop app's links land on the sign-in page itself; the web's on the site.
      url: isDesktopApp() ? `${window.location.origin}${SIGN_IN_PATH}` : window.location.origin,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    })
    if (!response.success) return { tone: 'error', text: response.message }
    // The link must be completed by the browser that asked for it (see the Welcome dialog).
    emailForSignIn.set(email)
    return { tone: 'success', text: response.message }
  } catch (error) {
    const text = auth ? auth.signInErrorMessage(error) : signInMessages.cannotSend
    notify({ tone: 'error', title: 'Sign-in link not sent', message: text })
    return { tone: 'error', text }
  }
}

export function SignInPanel() {
  return (
    <Panel aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in</h2>
      <p>Enter your work email and we will send you a link to sign in. No password needed.</p>
      <EmailLinkForm onSubmit={requestLink} />
    </Panel>
  )
}
