// Tag changes inside an Admin SDK transaction, kept the way firestore.rules keeps them for browsers:
// each reference that appears or disappears moves its tag's counter by one and names the template
// in lastSlug, so every tagCount stays equal to the number of references of its tag.
import type { Firestore, Transaction } from 'firebase-admin/firestore'
import { tagCounterPath, tagReferencePath } from '#domain/template-library.ts'

/**
 * Reads what changing the tags of `slug` from `before` to `after` touches, and returns the step that
 * stages the writes; call it after the transaction's last read (transactions read first).
 */
export async function prepareTagChanges(
  db: Firestore,
  transaction: Transaction,
  slug: string,
  before: readonly string[],
  after: readonly string[],
): Promise<() => void> {
  const changes = [
    ...after.filter((tag) => !before.includes(tag)).map((tag) => ({ tag, step: 1 })),
    ...before.filter((tag) => !after.includes(tag)).map((tag) => ({ tag, step: -1 })),
  ].map((change) => ({ ...change, counter: db.doc(tagCounterPath(change.tag)), reference: db.doc(tagReferencePath(change.tag, slug)) }))
  if (changes.length === 0) return () => {}
  const snapshots = await transaction.getAll(...changes.flatMap(({ counter, reference }) => [counter, reference]))
  return () => {
    changes.forEach(({ step, counter, reference }, index) => {
      const [counterSnapshot, referenceSnapshot] = [snapshots[2 * index], snapshots[2 * index + 1]]
      // A reference that is already there (or already gone) is counted as it is.
      if (referenceSnapshot?.exists === (step === 1)) return
      const count = counterSnapshot?.get('tagCount')
      transaction.set(counter, { tagCount: (typeof count === 'number' ? count : 0) + step, lastSlug: slug })
      if (step === 1) transaction.create(reference, { slug })
      else transaction.delete(reference)
    })
  }
}
