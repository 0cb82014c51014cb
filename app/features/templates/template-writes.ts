// Edits of the finding-template library from the browser, each the write firestore.rules accepts
// (finding_templates, finding_tags). A tag change commits three documents together: the template's
// tags with its stamp, the tag's counter moved by one naming the template in lastSlug, and the
// reference created or deleted. Deleting and importing templates go through the callables.
//
// Tag changes run as transactions that read the template: two people changing the same
// template's tags at once each commit against what the other left, so adding a tag that arrived
// meanwhile (or removing one already gone) does nothing instead of moving the counter twice.
import {
  arrayRemove,
  arrayUnion,
  deleteField,
  doc,
  getDocFromServer,
  increment,
  runTransaction,
  serverTimestamp,
  updateDoc,
  type Firestore,
} from 'firebase/firestore'
import * as v from 'valibot'
import {
  TEMPLATE_LIMITS,
  TemplateInputSchema,
  templateFieldSchemas,
  templateIssuesMessage,
  type TemplateField,
} from '#domain/finding-template.ts'
import { storedTags, tagCounterPath, tagReferencePath, templateContentDocument, templatePath } from '#domain/template-library.ts'

/** A refused edit; `message` is meant for people. */
export class TemplateWriteError extends Error {
  override name = 'TemplateWriteError'
}

type Issues = [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]

function parsed<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
  describe: (issues: Issues) => string,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, value)
  if (!result.success) throw new TemplateWriteError(describe(result.issues))
  return result.output
}

/** A single field's problem, e.g. `cwe: "XSS" is not a CWE id: …`. */
const fieldProblem = (field: string) => (issues: Issues) => `${field}: ${issues[0].message}`

const stamp = (editorEmail: string) => ({ updatedAt: serverTimestamp(), updatedBy: editorEmail })

/** Creates the template without tags, then adds its tags one change at a time. */
export async function createTemplate(db: Firestore, input: v.InferInput<typeof TemplateInputSchema>, editorEmail: string): Promise<void> {
  const template = parsed(TemplateInputSchema, input, templateIssuesMessage)
  const ref = doc(db, templatePath(template.slug))
  await runTransaction(db, async (transaction) => {
    if ((await transaction.get(ref)).exists()) throw new TemplateWriteError(`A template with the slug "${template.slug}" exists already`)
    transaction.set(ref, { ...templateContentDocument({ ...template, tags: [] }), createdAt: serverTimestamp(), ...stamp(editorEmail) })
  })
  for (const tag of template.tags) await addTag(db, template.slug, tag, editorEmail)
}

/** The fields saved one at a time; tags change through addTag and removeTag. */
export type SavedField = Exclude<TemplateField, 'tags'>

export type SavedValue<F extends SavedField> = v.InferOutput<(typeof templateFieldSchemas)[F]>

/**
 * Saves one field with the editor's stamp, as checked by the field's schema (a CVSS vector is
 * stored as its version, normalised vector and score; no vector removes the field). Returns the
 * value stored.
 */
export async function saveTemplateField<F extends SavedField>(
  db: Firestore,
  slug: string,
  field: F,
  value: v.InferInput<(typeof templateFieldSchemas)[F]>,
  editorEmail: string,
): Promise<SavedValue<F>> {
  const saved = parsed(templateFieldSchemas[field] as v.GenericSchema<unknown, SavedValue<F>>, value, fieldProblem(field))
  await updateDoc(doc(db, templatePath(slug)), { [field]: saved ?? deleteField(), ...stamp(editorEmail) })
  return saved
}

const TagSchema = v.pipe(
  templateFieldSchemas.tags,
  v.length(1, 'Give one tag'),
  v.transform(([tag]) => tag as string),
)

type TagChange = 'add' | 'remove'

const isPermissionDenied = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'permission-denied'

async function changeTag(db: Firestore, slug: string, tag: string, change: TagChange, editorEmail: string): Promise<void> {
  const templateRef = doc(db, templatePath(slug))
  const adding = change === 'add'
  try {
    await runTransaction(db, async (transaction) => {
      const template = await transaction.get(templateRef)
      if (!template.exists()) throw new TemplateWriteError(`There is no template "${slug}"`)
      const tags = storedTags(template.data())
      if (tags.includes(tag) === adding) return
      if (adding && tags.length >= TEMPLATE_LIMITS.tagCount) throw new TemplateWriteError(`Use at most ${TEMPLATE_LIMITS.tagCount} tags`)
      const referenceRef = doc(db, tagReferencePath(tag, slug))
      transaction.update(templateRef, { tags: adding ? arrayUnion(tag) : arrayRemove(tag), ...stamp(editorEmail) })
      // A merge creates the counter of a new tag at 1 (increment starts from 0).
      transaction.set(doc(db, tagCounterPath(tag)), { tagCount: increment(adding ? 1 : -1), lastSlug: slug }, { merge: true })
      if (adding) transaction.set(referenceRef, { slug })
      else transaction.delete(referenceRef)
    })
  } catch (error) {
    // Someone made the same change a moment earlier: the rules judge this commit against their
    // result and refuse it (the reference is there already, or gone) before the transaction could
    // start over and find nothing to do.
    if (isPermissionDenied(error) && storedTags((await getDocFromServer(templateRef)).data()).includes(tag) === adding) return
    throw error
  }
}

/** Tags the template; nothing happens when it has the tag already. */
export async function addTag(db: Firestore, slug: string, tag: string, editorEmail: string): Promise<void> {
  await changeTag(db, slug, parsed(TagSchema, [tag], fieldProblem('tags')), 'add', editorEmail)
}

/** Untags the template; nothing happens when it does not have the tag. */
export async function removeTag(db: Firestore, slug: string, tag: string, editorEmail: string): Promise<void> {
  await changeTag(db, slug, tag, 'remove', editorEmail)
}
