import { ContactButton } from './contact-button'

/**
 * Home's way for a person who sees no report to ask for one: the support form, with the request
 * written for them. A part of its own, so a visitor's first load of Home does without it.
 */
export function AskForAccess({ email, companyName }: { email: string; companyName: string | undefined }) {
  return (
    <ContactButton
      asButton
      label="Ask for access"
      startWith={{
        request_type: 'question',
        message: companyName
          ? `I signed in as ${email} and see none of ${companyName}'s reports. Please give me access to the services I need.`
          : `I signed in as ${email} and am not a member of any company yet. Please add me to mine: `,
      }}
    />
  )
}
