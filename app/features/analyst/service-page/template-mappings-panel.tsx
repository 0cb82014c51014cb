// The service's rule-to-template mappings: what later imports map by themselves. Made while
// reviewing (a template chosen for a finding is remembered for its rule); removed here.
import { useId, useState } from 'react'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { callAnalyst, failureMessage } from './analyst-calls'
import { ErrorText, Muted, Panel, Table } from './parts'

const Id = styled.code`
  display: block;
  font-size: 12px;
  color: var(--color-text-muted);
  overflow-wrap: anywhere;
`

/** A rule or template by its name, with its id under it (the id alone where no name was kept). */
function Named({ name, id }: { name: string | undefined; id: string }) {
  if (!name) return <code>{id}</code>
  return (
    <>
      {name}
      <Id>{id}</Id>
    </>
  )
}

export function TemplateMappingsPanel({ service }: { service: ServiceId }) {
  const heading = useId()
  const mappings = useLiveData(async () => (await import('./analyst-live')).watchTemplateMappings(service), [service])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)

  async function remove(ruleId: string) {
    setBusy(ruleId)
    setError(null)
    try {
      await callAnalyst('saveTemplateMapping', { service, ruleId, templateSlug: null })
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setBusy(null)
    }
  }

  return (
    <Panel aria-labelledby={heading}>
      <h2 id={heading}>Rule mappings</h2>
      <Muted>
        Findings of these scanner rules get their template when imported. Choose a template for a finding while reviewing to add one.
      </Muted>
      <LiveStatus live={mappings} what="the rule mappings" />
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {mappings.status === 'ready' &&
        (mappings.data.length === 0 ? (
          <Muted>No rule is mapped yet.</Muted>
        ) : (
          <Table aria-label="Rule mappings">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Template</th>
                <th scope="col">Set by</th>
                <th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {mappings.data.map((mapping) => (
                <tr key={mapping.id}>
                  <td>
                    <Named name={mapping.ruleTitle} id={mapping.ruleId} />
                  </td>
                  <td>
                    <Link to="/templates/finding" search={{ template: mapping.templateSlug }}>
                      <Named name={mapping.templateTitle} id={mapping.templateSlug} />
                    </Link>
                  </td>
                  <td>{mapping.updatedBy}</td>
                  <td>
                    <Button
                      type="button"
                      $variant="secondary"
                      disabled={busy !== null}
                      aria-label={`Remove the mapping of ${mapping.ruleTitle ?? mapping.ruleId}`}
                      onClick={() => void remove(mapping.ruleId)}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ))}
    </Panel>
  )
}
