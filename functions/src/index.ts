// Entry point the Functions emulator and deploys load: every callable and trigger is exported
// from here.
import './options.ts'

export { sendSignInLink } from './send-sign-in-link.ts'
export { handleSignIn } from './handle-sign-in.ts'
export { syncUserClaims } from './sync-user-claims.ts'
export { gateSignUp } from './gate-sign-up.ts'
export { handleSignedOutSupportEmail, handleSupportEmail } from './handle-support-email.ts'
export { getSearchClient } from './get-search-client.ts'
export { syncTemplateSearch } from './sync-template-search.ts'
export { syncFindingSearch } from './sync-finding-search.ts'
export { deleteFindingTemplate } from './delete-finding-template.ts'
export { importFindingTemplates } from './import-finding-templates.ts'
export { changeFindingStatus } from './reports/change-finding-status.ts'
export { requestRetest } from './reports/request-retest.ts'
export { completeRetest } from './reports/complete-retest.ts'
export { addFindingComment } from './reports/add-finding-comment.ts'
export { listMentionCandidates } from './reports/mention-candidates.ts'
export { sweepFindings } from './reports/sweep-findings.ts'
export { refreshVulnIntelDaily } from './intel/refresh-vuln-intel-daily.ts'
export { createVaultLink } from './vault/create-vault-link.ts'
export { vaultLinkInfo } from './vault/vault-link-info.ts'
export { claimVaultLink } from './vault/claim-vault-link.ts'
export { revokeVaultLink } from './vault/revoke-vault-link.ts'
export { sweepVault } from './vault/sweep-vault.ts'
export { createVaultRequest } from './vault/create-vault-request.ts'
export { vaultRequestInfo } from './vault/vault-request-info.ts'
export { submitVaultRequest } from './vault/submit-vault-request.ts'
export { revokeVaultRequest } from './vault/revoke-vault-request.ts'
export { openVaultRequest, setVaultKey, vaultTeamKeys } from './vault/vault-team.ts'
export { reviewVaultLinkFiles, reviewVaultRequestFiles } from './vault/review-vault-files.ts'
export { createDraftScan } from './scans/create-draft-scan.ts'
export { addDraftFindings } from './scans/add-draft-findings.ts'
export { finishDraftImport } from './scans/finish-draft-import.ts'
export { reviewDraftFindings } from './scans/review-draft-findings.ts'
export { publishScan } from './scans/publish-scan.ts'
export { previewPublication } from './scans/preview-publication.ts'
export { discardDraftScan } from './scans/discard-draft-scan.ts'
export { getPasswordReuseKey } from './scans/get-password-reuse-key.ts'
export { saveTemplateMapping } from './scans/save-template-mapping.ts'
export { createCompany, updateCompany, updateScanScope } from './admin/companies.ts'
export { saveService } from './admin/services.ts'
export { createDastKey, revokeDastKey } from './admin/dast-key-calls.ts'
export { createApiToken, revokeApiToken } from './admin/api-token-calls.ts'
export { listUsers } from './admin/list-users.ts'
export { fillMissingAddresses } from './admin/fill-addresses.ts'
export { inviteUser } from './admin/invite-user.ts'
export { updateUserAccess, removeUserFromCompany, restoreUserToCompany } from './admin/update-user-access.ts'
export { revokeUserSessions, setUserDisabled, deleteUser } from './admin/user-sessions.ts'
export { createEmailKey, revokeEmailKey } from './admin/email-key-calls.ts'
export {
  saveLocation,
  deleteLocation,
  createAgentEnrolment,
  changeAgent,
  queueScanJob,
  queuePasswordAudit,
  cancelScanJob,
} from './agents/fleet-callables.ts'
export { agentApi } from './agents/agent-api.ts'
export { sweepAgentJobs } from './agents/sweep-agent-jobs.ts'
export { dastApi } from './agents/dast-api.ts'
export { clientApi } from './api/client-api.ts'
export {
  createWebhookEndpoint,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  deleteWebhookEndpoint,
  resendWebhookDelivery,
} from './webhooks/webhook-calls.ts'
export { sendWebhookDelivery, sweepWebhookDeliveries } from './webhooks/deliver-webhooks.ts'
