// Entry point the Functions emulator and deploys load: every callable and trigger is exported
// from here.
import './options.ts'

export { sendSignInLink } from './send-sign-in-link.ts'
export { handleSignIn } from './handle-sign-in.ts'
export { handleSupportEmail } from './handle-support-email.ts'
export { getSearchClient } from './get-search-client.ts'
export { syncTemplateSearch } from './sync-template-search.ts'
export { syncFindingSearch } from './sync-finding-search.ts'
export { deleteFindingTemplate } from './delete-finding-template.ts'
export { importFindingTemplates } from './import-finding-templates.ts'
