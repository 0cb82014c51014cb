// The template library's callables: deleting (refused while findings use the template) and
// importing a file. Loaded with `import()` (it brings the Firebase SDK).
import { FirebaseError } from 'firebase/app'
import type { DeleteTemplateRequest, DeleteTemplateResponse, ImportTemplatesRequest, ImportTemplatesResponse } from '#domain/template-library.ts'
import { callable } from '~/core/firebase'


/** The server's own words when it refused for a reason people can act on; else a general line. */
function reason(error: unknown, fallback: string): Error {
  const actionable = ['functions/failed-precondition', 'functions/invalid-argument', 'functions/permission-denied', 'functions/not-found']
  // The SDK appends the HTTP status ("… [400]"), which means nothing to people.
  if (error instanceof FirebaseError && actionable.includes(error.code)) return new Error(error.message.replace(/\s*\[\d+\]$/, ''))
  return new Error(fallback)
}

export async function deleteTemplate(slug: string): Promise<void> {
  try {
    const { data } = await callable<DeleteTemplateRequest, DeleteTemplateResponse>('deleteFindingTemplate')({ slug })
    if (!data.success) throw new Error('The template was not deleted. Please try again.')
  } catch (error) {
    throw reason(error, 'The template was not deleted. Please try again.')
  }
}

export async function importTemplates(file: ImportTemplatesRequest): Promise<ImportTemplatesResponse> {
  try {
    return (await callable<ImportTemplatesRequest, ImportTemplatesResponse>('importFindingTemplates')(file)).data
  } catch (error) {
    throw reason(error, 'The file was not imported. Please try again.')
  }
}
