// Entry point the Functions emulator and deploys load: every callable and trigger is exported
// from here.
import './options.ts'

export { sendSignInLink } from './send-sign-in-link.ts'
export { handleSignIn } from './handle-sign-in.ts'
export { handleSupportEmail } from './handle-support-email.ts'
export { getSearchClient } from './get-search-client.ts'
export { syncTemplateSearch } from './sync-template-search.ts'
export { deleteFindingTemplate } from './delete-finding-template.ts'
export { importFindingTemplates } from './import-finding-templates.ts'
export { changeFindingStatus } from './reports/change-finding-status.ts'
export { requestRetest } from './reports/request-retest.ts'
export { completeRetest } from './reports/complete-retest.ts'
export { addFindingComment } from './reports/add-finding-comment.ts'
export { sweepFindings } from './reports/sweep-findings.ts'
