// The company's API tokens for its own tools: make one with its scopes and expiry (shown once,
// then only its first and last characters), see each token's scopes, expiry and last use, and
// revoke it. The calls a token answers are in the API's OpenAPI document (/api/v1/openapi.json).
import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import styled from 'styled-components'
import { API_SCOPES, type ApiScope } from '#domain/access.ts'
import { API_TOKEN_LIMITS, apiScopeLabels, CreateApiTokenRequestSchema, type ApiToken } from '#domain/api-tokens.ts'
import type { Company } from '#domain/companies.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { CheckboxGroup } from '~/ui/checkbox-grid'
import { TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { Muted, OrgSection } from '../org/org-section'
import { Breaking, CreateTokenEnd, errorText, ExpiryField, IssuedTokenDialog, TokenList } from '../org/token-parts'

const Form = styled.form`
  display: grid;
  gap: 12px;
  max-width: 640px;
`

export function ApiTokensPage({ workspace }: { workspace: Workspace }) {
  const company = workspace.company
  if (!company) return <Muted>Choose a company first.</Muted>
  return (
    <>
      <CreateToken company={company} />
      <TokensList company={company} />
    </>
  )
}

function CreateToken({ company }: { company: Company }) {
  const hydrated = useHydrated()
  const [name, setName] = useState('')
  const [days, setDays] = useState('90')
  const [scopes, setScopes] = useState<ApiScope[]>(['findings:read'])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [issued, setIssued] = useState<{ name: string; token: string } | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = v.safeParse(CreateApiTokenRequestSchema, {
      company: company.slug,
      name,
      scopes,
      expiresInDays: days.trim() === '' ? undefined : Number(days),
    })
    if (!parsed.success) return setError(parsed.issues[0].message)
    setBusy(true)
    setError(null)
    try {
      const { token } = await callLazily('createApiToken', parsed.output)
      setIssued({ name: parsed.output.name, token })
      setName('')
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <OrgSection aria-labelledby="new-token-title">
      <h2 id="new-token-title">New API token for {company.companyName}</h2>
      <p>
        A tool presents the token to read {company.companyName}'s findings and scans, or change them, as its scopes allow. You see the token
        once, when it is made.
      </p>
      <Form onSubmit={submit} aria-label="New API token" noValidate>
        <TextField
          label="Name"
          value={name}
          disabled={!hydrated}
          maxLength={API_TOKEN_LIMITS.name}
          onChange={(e) => setName(e.target.value)}
        />
        <CheckboxGroup>
          <legend>Scopes</legend>
          {API_SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                disabled={!hydrated}
                onChange={(e) =>
                  setScopes((now) =>
                    e.target.checked ? API_SCOPES.filter((s) => s === scope || now.includes(s)) : now.filter((s) => s !== scope),
                  )
                }
              />
              <span>
                {apiScopeLabels[scope]} <Muted as="code">{scope}</Muted>
              </span>
            </label>
          ))}
        </CheckboxGroup>
        <ExpiryField days={days} onChange={setDays} max={API_TOKEN_LIMITS.maxExpiryDays} hydrated={hydrated} />
        <CreateTokenEnd error={error} busy={busy} hydrated={hydrated} label="Create token" />
      </Form>
      <IssuedTokenDialog issued={issued} what="API token" noun="token" storeWhere="your tool's secrets" onDone={() => setIssued(null)} />
    </OrgSection>
  )
}

function TokensList({ company }: { company: Company }) {
  const tokens = useLiveData(() => import('../org/org-live').then((live) => live.watchApiTokens(company.slug)), [company.slug])
  return (
    <TokenList<ApiToken>
      heading="Tokens"
      label="API tokens"
      noun="token"
      users="Tools"
      tokens={tokens}
      hintHeader="Token"
      own={[
        {
          id: 'scopes',
          header: 'Scopes',
          accessorFn: (t) => t.scopes.join(', '),
          cell: ({ getValue }) => <Breaking>{String(getValue())}</Breaking>,
        },
      ]}
      revoke={async (token) => {
        await callLazily('revokeApiToken', { id: token.id })
      }}
    />
  )
}
