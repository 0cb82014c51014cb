// Invite a person or change what they may do: email (invitations only), type, level, companies,
// services enabled and managed. Checked with the callables' own schemas before it goes, so the
// messages are the server's. Someone who also works for companies the actor does not administer
// keeps their level and services (only a platform admin changes those): only companies can change.
import { useState, type FormEvent } from 'react'
import styled from 'styled-components'
import * as v from 'valibot'
import { InviteUserRequestSchema, peopleMessages, UpdateUserAccessRequestSchema, type PersonRow } from '#domain/admin-people-calls.ts'
import { LEVEL, USER_TYPES, type Access, type UserType } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import { services } from '#domain/services.ts'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { Field, FormMessage, Label, Select, TextField } from '~/ui/text-field'
import { levelChoices, levelName } from './people-view'

const Form = styled.form`
  display: grid;
  gap: 14px;
`

const Checks = styled.fieldset`
  border: 0;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 6px 16px;

  legend {
    font-weight: 600;
    font-size: 14px;
    margin-bottom: 6px;
  }
  label {
    display: inline-flex;
    gap: 6px;
    align-items: center;
    font-size: 14px;
  }
`

const Note = styled.p`
  margin: 0;
  font-size: 14px;
  color: var(--color-text-muted);
`

function CheckList({
  legend,
  options,
  value,
  onChange,
  locked = [],
}: {
  legend: string
  options: readonly { value: string; label: string }[]
  value: string[]
  onChange: (value: string[]) => void
  locked?: readonly string[]
}) {
  return (
    <Checks>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="checkbox"
            checked={value.includes(option.value)}
            disabled={locked.includes(option.value)}
            onChange={(event) => onChange(event.target.checked ? [...value, option.value] : value.filter((x) => x !== option.value))}
          />
          {option.label}
        </label>
      ))}
    </Checks>
  )
}

const SERVICE_OPTIONS = services.map((s) => ({ value: s.id, label: s.label }))

export interface PersonDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The person to change; none to invite someone. */
  person: PersonRow | null
  actor: Access
  /** The companies the actor may give (all for platform admins, their own for company admins). */
  companies: readonly Company[]
  /** The company a company admin invites into, ticked from the start. */
  defaultCompany: string | null
  onDone: (message: string) => void
}

export function PersonDialog({ open, onOpenChange, person, actor, companies, defaultCompany, onDone }: PersonDialogProps) {
  const platform = (actor.accessLevel ?? 0) >= LEVEL.platformAdmin
  const [email, setEmail] = useState('')
  const [userType, setUserType] = useState<UserType>(person?.userType ?? 'client')
  const [accessLevel, setAccessLevel] = useState(person?.accessLevel ?? LEVEL.clientViewer)
  const [chosen, setChosen] = useState<string[]>(person?.companies ?? (defaultCompany ? [defaultCompany] : []))
  const [enabled, setEnabled] = useState<string[]>(person?.servicesEnabled ?? [])
  const [managed, setManaged] = useState<string[]>(person?.servicesManaged ?? [])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const mine = new Set(companies.map((c) => c.slug))
  // Companies of theirs the actor cannot see stay as they are, shown but not changeable.
  const others = (person?.companies ?? []).filter((slug) => !mine.has(slug))
  const companyOptions = [
    ...companies.map((c) => ({ value: c.slug, label: c.companyName })),
    ...others.map((slug) => ({ value: slug, label: slug })),
  ]
  // The row says so only to callers below platform admin.
  const rightsLocked = !!person?.inOtherCompanies
  const levels = rightsLocked ? [] : levelChoices(actor, userType)
  const levelOptions = levels.includes(accessLevel) ? levels : [accessLevel, ...levels]

  async function submit(event: FormEvent) {
    event.preventDefault()
    setError(null)
    const fields = { userType, accessLevel, companies: chosen, servicesEnabled: enabled, servicesManaged: managed }
    const checked = person
      ? v.safeParse(UpdateUserAccessRequestSchema, { uid: person.uid, ...fields })
      : v.safeParse(InviteUserRequestSchema, { email, ...fields, url: 'https://example.com', timeZone: 'UTC' })
    if (!checked.success) return setError(checked.issues[0].message)
    setBusy(true)
    try {
      const client = await import('./people-client')
      if (person) {
        const { changed } = await client.updatePerson({ uid: person.uid, ...fields })
        onDone(changed ? `${person.email ?? 'The person'} now has the access shown.` : 'Nothing changed.')
      } else {
        const { mailed } = await client.invitePerson({ email, ...fields })
        const address = email.trim().toLowerCase()
        onDone(
          !mailed
            ? `Invited ${email}, but the mail could not be sent: they can sign in from Home.`
            : platform
              ? `Invited ${address}: a sign-in link is on its way.`
              : // The answer is the same for an address with an account at another company (inviteUser).
                `Invited ${address}: a sign-in link is on its way. If the address already has an account with another company, a platform administrator is asked to add them instead.`,
        )
      }
      onOpenChange(false)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work: try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={person ? `Change ${person.email ?? 'access'}` : 'Invite a person'}
      description={person ? 'Their pages follow the change within seconds.' : 'They get an email with a sign-in link.'}
      dismissible={!busy}
    >
      <Form onSubmit={(event) => void submit(event)} noValidate aria-label={person ? 'Change access' : 'Invite a person'}>
        {!person && (
          <TextField label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" required />
        )}
        {platform && (
          <Field>
            <Label htmlFor="person-type">Type</Label>
            <Select
              id="person-type"
              value={userType}
              onChange={(e) => {
                const type = e.target.value as UserType
                setUserType(type)
                setAccessLevel(levelChoices(actor, type)[0] ?? LEVEL.clientViewer)
              }}
            >
              {USER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type === 'client' ? 'Client' : 'Analyst'}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Field>
          <Label htmlFor="person-level">Level</Label>
          <Select
            id="person-level"
            value={accessLevel}
            disabled={rightsLocked}
            aria-describedby={rightsLocked ? 'person-rights-locked' : undefined}
            onChange={(e) => setAccessLevel(Number(e.target.value))}
          >
            {levelOptions.map((level) => (
              <option key={level} value={level} disabled={!levels.includes(level)}>
                {level} · {levelName(level)}
              </option>
            ))}
          </Select>
        </Field>
        {rightsLocked && <Note id="person-rights-locked">{peopleMessages.otherCompanies}.</Note>}
        <CheckList legend="Companies" options={companyOptions} value={chosen} onChange={setChosen} locked={others} />
        <CheckList
          legend="Services enabled"
          options={SERVICE_OPTIONS}
          value={enabled}
          onChange={setEnabled}
          locked={rightsLocked ? SERVICE_OPTIONS.map((o) => o.value) : []}
        />
        {platform && <CheckList legend="Services managed" options={SERVICE_OPTIONS} value={managed} onChange={setManaged} />}
        {error && <FormMessage $tone="error">{error}</FormMessage>}
        <DialogActions>
          <Button type="button" $variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {person ? 'Save' : 'Invite'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  )
}
