import { useLiveData } from '~/core/live-data'
import { formatNumber } from '#domain/numbers.ts'

/** "348 templates" once counted; nothing while counting or when the count failed (the hub still links). */
export function TemplateCount() {
  const count = useLiveData(() => import('./template-library-live').then((m) => m.watchTemplateCount()), [])
  if (count.status !== 'ready' || count.data === undefined) return null
  return <span data-testid="template-count">{`${formatNumber(count.data)} ${count.data === 1 ? 'template' : 'templates'}`}</span>
}
