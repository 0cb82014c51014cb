// saveTemplateMapping: an analyst maps a scanner rule of a service to a template for later imports,
// or removes the mapping, from the service page's list of mappings.
import { FieldValue } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import { templatePath } from '#domain/template-library.ts'
import { storedTemplateMapping, templateMappingFromDocument, templateMappingId, templateMappingPath } from '#domain/template-mappings.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { adminDb } from '../admin.ts'
import { callerMessages, defineCallable } from '../define-callable.ts'

export const saveTemplateMapping = defineCallable('saveTemplateMapping', {}, async (caller, request) => {
  const db = adminDb()
  const access = accessFromDocument(readUserAccess((await db.doc(userAccessPath(caller.uid)).get()).data()), caller.access)
  if (!mayImportScans(access, request.service)) throw new HttpsError('permission-denied', callerMessages.denied)
  const ref = db.doc(templateMappingPath(await templateMappingId(request.service, request.ruleId)))
  if (request.templateSlug === null) {
    await ref.delete()
    return { saved: true }
  }
  const [template, earlier] = await Promise.all([db.doc(templatePath(request.templateSlug)).get(), ref.get()])
  if (!template.exists) throw new HttpsError('not-found', `There is no template "${request.templateSlug}".`)
  await ref.set({
    ...storedTemplateMapping({
      service: request.service,
      ruleId: request.ruleId,
      // The rule's name comes from its findings, named when a review mapped it; kept across a change of template.
      ruleTitle: templateMappingFromDocument(ref.id, earlier.data())?.ruleTitle,
      template: { slug: request.templateSlug, data: template.data() },
      by: caller.email ?? caller.uid,
    }),
    updatedAt: FieldValue.serverTimestamp(),
  })
  return { saved: true }
})
