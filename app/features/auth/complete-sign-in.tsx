import { useEffect, useRef, useState } from 'react'
import styled from 'styled-components'
import { Link, useNavigate, useRouter } from '@tanstack/react-router'
import { returnPathOfLink } from '#domain/sign-in.ts'
import { isDesktopApp } from '~/platform/desktop'
import { desktopLinkFor } from '~/platform/desktop-sign-in-link'
import { Button } from '~/ui/button'
import { Dialog } from '~/ui/dialog'
import { InfoTip } from '~/ui/info-tip'
import { Notice } from '~/ui/notice'
import { notify } from '~/ui/notifications/notifications'
import { EmailLinkForm, type FormOutcome } from './email-link-form'
import { emailForSignIn } from './email-for-sign-in'
import { returnPath } from './return-path'
import { OTHER_ADDRESS_MESSAGE } from './sign-in-texts'

type Step =
  | { name: 'checking' }
  | { name: 'hand-off'; url: string }
  | { name: 'ask-email' }
  | { name: 'signing-in' }
  | { name: 'failed'; message: string }
  | { name: 'not-a-link' }

const OpenInApp = styled(Button)`
  text-decoration: none;
`

const InBrowser = styled.button`
  padding: 0;
  border: 0;
  background: none;
  color: var(--color-primary);
  font: inherit;
  text-decoration: underline;
  cursor: pointer;
`

/** A link asked for in the desktop app, opened in a browser: offered to the app (and opened there), or completed here. */
function HandOff({ url, inBrowser }: { url: string; inBrowser: () => void }) {
  const open = useRef<HTMLAnchorElement>(null)
  // Performed once; the system asks the person whether to open Bulwark, or does nothing without it.
  useEffect(() => open.current?.click(), [])
  return (
    <Notice title="Open in Bulwark">
      <p>You asked for this link in the Bulwark desktop app. Open it there to finish signing in.</p>
      <p>
        <OpenInApp as="a" ref={open} href={url}>
          Open in Bulwark
        </OpenInApp>
      </p>
      <p>
        Bulwark did not open? <InBrowser onClick={inBrowser}>Sign in here in the browser instead</InBrowser>
      </p>
    </Notice>
  )
}

/**
 * Finishes sign-in from the emailed link: this page's own address, or the link the desktop app
 * received. The address must come from this browser's own request, or be typed again: a link
 * alone is not enough, which stops someone from signing a victim into the attacker's account.
 */
export function CompleteSignIn({ link: givenLink }: { link?: string }) {
  const router = useRouter()
  const navigate = useNavigate()
  const [step, setStep] = useState<Step>({ name: 'checking' })

  // Read once: the address is cleaned right after, so the one-time code leaves the history.
  const [pageLink] = useState(() => (typeof window === 'undefined' ? '' : window.location.href))
  const link = () => givenLink ?? pageLink

  const complete = async (email: string, typed = false): Promise<FormOutcome> => {
    // Typed in the dialog: it stays open (its button shows the wait), so a typo can be corrected there.
    if (!typed) setStep({ name: 'signing-in' })
    const auth = await import('./auth-client')
    try {
      await auth.completeSignIn(email, link())
      emailForSignIn.clear()
      await router.invalidate()
      // Back to the page the person asked for before signing in (carried by the link, for another
      // browser, and kept by this one), else home.
      const kept = returnPath.take()
      const back = returnPathOfLink(link()) ?? kept
      if (back) await navigate({ href: back, replace: true })
      else await navigate({ to: '/', replace: true })
      return { tone: 'success', text: 'Signed in.' }
    } catch (error) {
      if (typed && auth.isOtherAddress(error)) {
        // A typo: the one-time code is not spent, so the dialog stays for another try.
        setStep({ name: 'ask-email' })
        return { tone: 'error', text: OTHER_ADDRESS_MESSAGE }
      }
      const message = auth.signInErrorMessage(error)
      notify({ tone: 'error', title: 'Sign-in failed', message })
      setStep({ name: 'failed', message })
      return { tone: 'error', text: message }
    }
  }

  // Bumped when the link changes or the page goes: a check started before then is dropped.
  const generation = useRef(0)
  const proceed = () => {
    const started = generation.current
    void import('./auth-client').then((auth) => {
      if (generation.current !== started) return
      if (!auth.isSignInLink(link())) return setStep({ name: 'not-a-link' })
      const email = emailForSignIn.get()
      if (email) void complete(email)
      else setStep({ name: 'ask-email' })
    })
  }

  useEffect(() => {
    if (!givenLink) window.history.replaceState(null, '', window.location.pathname)
    // Asked for in the desktop app: the app completes it, unless the person chooses this browser.
    const handOff = !givenLink && !isDesktopApp() ? desktopLinkFor(pageLink) : null
    if (handOff) setStep({ name: 'hand-off', url: handOff })
    else proceed()
    return () => {
      generation.current += 1
    }
    // Once per link: completing twice would spend the one-time code.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [givenLink])

  return (
    <>
      {step.name === 'hand-off' ? (
        <HandOff
          url={step.url}
          inBrowser={() => {
            setStep({ name: 'checking' })
            proceed()
          }}
        />
      ) : step.name === 'failed' ? (
        <Notice title="Sign-in failed">
          <p>{step.message}</p>
          <Link to="/">Go to home to ask for a new link</Link>
        </Notice>
      ) : step.name === 'not-a-link' ? (
        <Notice title="This is not a sign-in link">
          <p>Open the sign-in link from your email, or ask for a new one.</p>
          <Link to="/">Go to home</Link>
        </Notice>
      ) : (
        <Notice title="Signing in">
          <p role="status">{step.name === 'ask-email' ? 'Confirm your email to continue.' : 'Completing your sign-in…'}</p>
        </Notice>
      )}
      <Dialog
        open={step.name === 'ask-email'}
        dismissible={false}
        title="Welcome"
        titleAddon={
          <InfoTip
            label="Why we ask for your email"
            text="This browser must know the address the link was sent to. This prevents session fixation and other attacks that use a link alone."
          />
        }
        description="Please provide your email to sign in"
      >
        <EmailLinkForm onSubmit={(email) => complete(email, true)} autoFocus />
      </Dialog>
    </>
  )
}
