import styled from 'styled-components'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { AutosaveSelectField } from '~/ui/autosave/autosave-select-field'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { Avatar } from '~/ui/avatar'
import { useColorScheme, type ColorSchemePreference } from '~/ui/color-scheme'
import { SegmentedControl } from '~/ui/segmented-control'
import { surface } from '~/ui/surface'
import { Field, Label } from '~/ui/text-field'
import { DisplayNameSchema, PhotoUrlSchema, problemWith } from './profile-fields'

const Section = styled.section`
  ${surface}
  max-width: 640px;
  padding: 20px 24px;
  margin-bottom: 24px;
  display: grid;
  gap: 20px;

  h2 {
    margin: 0;
    font-size: 17px;
  }
`

const Identity = styled.div`
  display: flex;
  align-items: center;
  gap: 16px;
  min-width: 0;

  p {
    margin: 0;
    color: var(--color-text-muted);
    overflow-wrap: anywhere;
  }
`

const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: var(--color-text-muted);
`

const schemeOptions = [
  { value: 'auto', label: 'Auto' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const satisfies readonly { value: ColorSchemePreference; label: string }[]

const live = () => import('~/core/workspace-live')

/** The person's own settings; every field saves itself. */
export function ProfileForm({ session, workspace }: { session: Session; workspace: Workspace }) {
  const { preferences } = workspace
  return (
    <Section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <Identity>
        <Avatar name={preferences.displayName} email={session.email} photoURL={preferences.photoURL} size={56} />
        <div>
          <strong>{preferences.displayName || session.email}</strong>
          {preferences.displayName && <p>{session.email}</p>}
        </div>
      </Identity>
      <AutosaveTextField
        label="Display name"
        saved={preferences.displayName}
        validate={(value) => problemWith(DisplayNameSchema, value)}
        save={async (displayName) => (await live()).savePreferences(session, { displayName })}
        inputProps={{ autoComplete: 'name', maxLength: 120 }}
        hint="Shown in the user menu instead of your address."
      />
      <AutosaveTextField
        label="Photo address"
        saved={preferences.photoURL}
        validate={(value) => problemWith(PhotoUrlSchema, value)}
        save={async (photoURL) => (await live()).savePreferences(session, { photoURL })}
        inputProps={{ type: 'url', inputMode: 'url', placeholder: 'https://', autoComplete: 'photo' }}
        hint="An https address of a square image. Leave empty for your initials."
      />
      <ColorSchemeField />
      <DefaultCompanyField session={session} workspace={workspace} />
    </Section>
  )
}

/** Kept in this browser (decision 0010): it applies at once and needs no save. */
function ColorSchemeField() {
  const { preference, setPreference } = useColorScheme()
  return (
    <Field>
      <Label as="span">Colour scheme</Label>
      <SegmentedControl label="Colour scheme" value={preference} options={schemeOptions} onChange={setPreference} />
      <Hint>Saved in this browser. Auto follows your system setting.</Hint>
    </Field>
  )
}

/** The company the workspace opens with; saved through the company switch (the callback variant). */
function DefaultCompanyField({ session, workspace }: { session: Session; workspace: Workspace }) {
  if (workspace.companies.length < 2) {
    return (
      <Field>
        <Label as="span">Default company</Label>
        <Hint>{workspace.company ? workspace.company.companyName : 'You are not a member of any company yet.'}</Hint>
      </Field>
    )
  }
  return (
    <AutosaveSelectField
      label="Default company"
      variant="callback"
      saved={workspace.preferences.defaultCompany ?? workspace.company?.slug ?? ''}
      options={workspace.companies.map((company) => ({ value: company.slug, label: company.companyName }))}
      save={async (slug) => (await live()).switchCompany(session, slug)}
      hint="The workspace opens with this company; switching company in the user menu changes it too."
    />
  )
}
