// deleteFindingTemplate: removes a template from the library, with its tag references and counts,
// unless findings of any company still use it (findings keep their template's slug).
import { HttpsError } from 'firebase-functions/v2/https'
import { storedTags, templatePath } from '#domain/template-library.ts'
import { adminDb } from './admin.ts'
import { defineCallable } from './define-callable.ts'
import { prepareTagChanges } from './template-tags.ts'

export const templateInUseMessage = (findings: number) =>
  `${findings} ${findings === 1 ? 'finding uses' : 'findings use'} this template: it can be deleted once no finding does.`

export const deleteFindingTemplate = defineCallable('deleteFindingTemplate', {}, async (_caller, { slug, check }) => {
  const db = adminDb()
  if (check) {
    const uses = await db.collectionGroup('findings').where('templateSlug', '==', slug).count().get()
    return { success: true as const, findings: uses.data().count }
  }
  await db.runTransaction(async (transaction) => {
    // Counted inside the transaction, right before the delete.
    const uses = await transaction.get(db.collectionGroup('findings').where('templateSlug', '==', slug).count())
    const findings = uses.data().count
    if (findings > 0) throw new HttpsError('failed-precondition', templateInUseMessage(findings))
    const template = await transaction.get(db.doc(templatePath(slug)))
    if (!template.exists) throw new HttpsError('not-found', `There is no template "${slug}".`)
    const writeTagChanges = await prepareTagChanges(db, transaction, slug, storedTags(template.data()), [])
    transaction.delete(template.ref)
    writeTagChanges()
  })
  return { success: true as const }
})
