// Every Cloud Function callable: its name, what it takes, what it answers and who may call it.
// The functions define each callable from this table (functions/src/define-callable.ts) and the
// browser calls them through it (app/core/call.ts), so both ends check the same contract. Pure
// TypeScript and valibot: Node runs it directly and the functions build compiles it.
import * as v from 'valibot'
import {
  mayEditTemplates,
  mayManageCompanies,
  mayManageApiTokens,
  mayManageWebhooks,
  mayManageDastKeys,
  mayManageServiceCatalogue,
  mayUseVault,
  mayRequestFindingsSearch,
  mayRequestSearchCredentials,
  type Access,
} from './access.ts'
import { SignInRequestSchema, SignInResponseSchema } from './sign-in.ts'
import {
  CreateWebhookEndpointRequestSchema,
  CreateWebhookEndpointResponseSchema,
  DeleteWebhookEndpointRequestSchema,
  ResendWebhookDeliveryRequestSchema,
  RotateWebhookSecretRequestSchema,
  RotateWebhookSecretResponseSchema,
  SetWebhookEndpointEnabledRequestSchema,
  WebhookChangedResponseSchema,
} from './webhooks.ts'
import { SignedOutSupportRequestSchema, SupportRequestSchema, SupportResponseSchema } from './support.ts'
import {
  DeleteTemplateRequestSchema,
  DeleteTemplateResponseSchema,
  ImportTemplatesRequestSchema,
  ImportTemplatesResponseSchema,
  SearchClientRequestSchema,
  SearchClientResponseSchema,
} from './template-library-calls.ts'
import { HandleSignInResponseSchema } from './users-access.ts'
import {
  AddFindingCommentRequestSchema,
  AddFindingCommentResponseSchema,
  ChangeFindingStatusRequestSchema,
  ChangeFindingStatusResponseSchema,
  CompleteRetestRequestSchema,
  CompleteRetestResponseSchema,
  ListMentionCandidatesRequestSchema,
  ListMentionCandidatesResponseSchema,
  mayComment,
  mayCompleteRetests,
  mayMoveFindings,
  RequestRetestRequestSchema,
  RequestRetestResponseSchema,
} from './reports-calls.ts'
import {
  ClaimVaultLinkRequestSchema,
  ClaimVaultLinkResponseSchema,
  CreateVaultLinkRequestSchema,
  CreateVaultLinkResponseSchema,
  RevokeVaultLinkRequestSchema,
  RevokeVaultLinkResponseSchema,
  VaultLinkInfoRequestSchema,
  VaultLinkInfoResponseSchema,
} from './vault.ts'
import {
  CreateVaultRequestRequestSchema,
  CreateVaultRequestResponseSchema,
  RevokeVaultRequestRequestSchema,
  RevokeVaultRequestResponseSchema,
  SubmitVaultRequestRequestSchema,
  SubmitVaultRequestResponseSchema,
  VaultRequestInfoRequestSchema,
  VaultRequestInfoResponseSchema,
} from './vault-requests.ts'
import {
  OpenVaultRequestRequestSchema,
  OpenVaultRequestResponseSchema,
  SetVaultKeyRequestSchema,
  SetVaultKeyResponseSchema,
  VaultTeamKeysRequestSchema,
  VaultTeamKeysResponseSchema,
} from './vault-keys.ts'
import {
  AddDraftFindingsRequestSchema,
  AddDraftFindingsResponseSchema,
  CreateDraftScanRequestSchema,
  CreateDraftScanResponseSchema,
  DiscardDraftScanRequestSchema,
  DiscardDraftScanResponseSchema,
  FinishDraftImportRequestSchema,
  FinishDraftImportResponseSchema,
  mayImportAnyScans,
  PasswordReuseKeyRequestSchema,
  SaveTemplateMappingRequestSchema,
  SaveTemplateMappingResponseSchema,
  PasswordReuseKeyResponseSchema,
  PreviewPublicationRequestSchema,
  PreviewPublicationResponseSchema,
  PublishScanRequestSchema,
  PublishScanResponseSchema,
  ReviewDraftFindingsRequestSchema,
  ReviewDraftFindingsResponseSchema,
} from './scan-import-calls.ts'
import {
  CreateCompanyRequestSchema,
  CreateCompanyResponseSchema,
  UpdateCompanyRequestSchema,
  UpdateCompanyResponseSchema,
  UpdateScanScopeRequestSchema,
  UpdateScanScopeResponseSchema,
} from './company-admin.ts'
import { SaveServiceRequestSchema, SaveServiceResponseSchema } from './service-catalogue.ts'
import {
  CreateDastKeyRequestSchema,
  CreateDastKeyResponseSchema,
  RevokeDastKeyRequestSchema,
  RevokeDastKeyResponseSchema,
} from './dast-keys.ts'
import {
  CreateApiTokenRequestSchema,
  CreateApiTokenResponseSchema,
  RevokeApiTokenRequestSchema,
  RevokeApiTokenResponseSchema,
} from './api-tokens.ts'
import {
  ChangedResponseSchema,
  DeleteUserRequestSchema,
  FillMissingAddressesRequestSchema,
  FillMissingAddressesResponseSchema,
  InviteUserRequestSchema,
  InviteUserResponseSchema,
  ListUsersRequestSchema,
  ListUsersResponseSchema,
  mayManageEveryone,
  mayManagePeople,
  RemoveUserFromCompanyRequestSchema,
  RestoreUserToCompanyRequestSchema,
  RevokeUserSessionsRequestSchema,
  SetUserDisabledRequestSchema,
  UpdateUserAccessRequestSchema,
} from './admin-people-calls.ts'
import {
  CreateEmailKeyRequestSchema,
  CreateEmailKeyResponseSchema,
  RevokeEmailKeyRequestSchema,
  RevokeEmailKeyResponseSchema,
} from './email-keys.ts'
import {
  AgentActionRequestSchema,
  AgentActionResponseSchema,
  CancelScanRequestSchema,
  CancelScanResponseSchema,
  CreateEnrolmentRequestSchema,
  CreateEnrolmentResponseSchema,
  mayManageFleet,
  mayQueueScans,
  QueuePasswordAuditRequestSchema,
  QueuePasswordAuditResponseSchema,
  QueueScanRequestSchema,
  QueueScanResponseSchema,
  SaveLocationRequestSchema,
  DeleteLocationRequestSchema,
  DeleteLocationResponseSchema,
  SaveLocationResponseSchema,
} from './agents-calls.ts'

/**
 * Who may call: anyone ('public'), anyone with a valid sign-in that was not revoked, whatever
 * their level ('signed-in'), or a signed-in caller whose access the rule of access.ts allows.
 */
export type CallableAudience = 'public' | 'signed-in' | ((access: Access) => boolean)

export interface CallableContract {
  request: v.GenericSchema
  response: v.GenericSchema
  who: CallableAudience
}

/** What any callable may answer, whatever it does (functions/src/database-reach.ts). */
export const callableMessages = {
  databaseUnreachable: 'Our database cannot be reached just now, so nothing was changed: try again in a moment.',
} as const

/** The request of a callable that takes nothing (the SDK sends null). */
export const NoDataSchema = v.nullish(v.never('This call takes no data'))

export const callables = {
  sendSignInLink: { request: SignInRequestSchema, response: SignInResponseSchema, who: 'public' },
  // Right after the link signed someone in: they have no level before this call gives it.
  handleSignIn: { request: NoDataSchema, response: HandleSignInResponseSchema, who: 'signed-in' },
  handleSupportEmail: { request: SupportRequestSchema, response: SupportResponseSchema, who: 'signed-in' },
  // For those who cannot sign in: rate-limited per address and per network address.
  handleSignedOutSupportEmail: { request: SignedOutSupportRequestSchema, response: SupportResponseSchema, who: 'public' },
  // Templates for analysts above level 5, findings for anyone with a level: the handler checks the type and company.
  getSearchClient: {
    request: SearchClientRequestSchema,
    response: SearchClientResponseSchema,
    who: (access: Access) => mayRequestSearchCredentials(access) || mayRequestFindingsSearch(access),
  },
  deleteFindingTemplate: { request: DeleteTemplateRequestSchema, response: DeleteTemplateResponseSchema, who: mayEditTemplates },
  importFindingTemplates: { request: ImportTemplatesRequestSchema, response: ImportTemplatesResponseSchema, who: mayEditTemplates },
  changeFindingStatus: { request: ChangeFindingStatusRequestSchema, response: ChangeFindingStatusResponseSchema, who: mayMoveFindings },
  requestRetest: { request: RequestRetestRequestSchema, response: RequestRetestResponseSchema, who: mayMoveFindings },
  completeRetest: { request: CompleteRetestRequestSchema, response: CompleteRetestResponseSchema, who: mayCompleteRetests },
  addFindingComment: { request: AddFindingCommentRequestSchema, response: AddFindingCommentResponseSchema, who: mayComment },
  // The people a comment may mention: those who may read the finding, a handful at a time.
  listMentionCandidates: { request: ListMentionCandidatesRequestSchema, response: ListMentionCandidatesResponseSchema, who: mayComment },
  createVaultLink: { request: CreateVaultLinkRequestSchema, response: CreateVaultLinkResponseSchema, who: mayUseVault },
  revokeVaultLink: { request: RevokeVaultLinkRequestSchema, response: RevokeVaultLinkResponseSchema, who: mayUseVault },
  // Recipients need no account: the link's tokens are their proof; a named recipient's sign-in is checked by the handler.
  vaultLinkInfo: { request: VaultLinkInfoRequestSchema, response: VaultLinkInfoResponseSchema, who: 'public' },
  claimVaultLink: { request: ClaimVaultLinkRequestSchema, response: ClaimVaultLinkResponseSchema, who: 'public' },
  createVaultRequest: { request: CreateVaultRequestRequestSchema, response: CreateVaultRequestResponseSchema, who: mayUseVault },
  revokeVaultRequest: { request: RevokeVaultRequestRequestSchema, response: RevokeVaultRequestResponseSchema, who: mayUseVault },
  // Team access (decision 0022): the handlers check the company's engagement (isEngagementAnalyst).
  setVaultKey: { request: SetVaultKeyRequestSchema, response: SetVaultKeyResponseSchema, who: mayUseVault },
  vaultTeamKeys: { request: VaultTeamKeysRequestSchema, response: VaultTeamKeysResponseSchema, who: mayUseVault },
  openVaultRequest: { request: OpenVaultRequestRequestSchema, response: OpenVaultRequestResponseSchema, who: mayUseVault },
  // Clients answer without an account: the link's submit token is their proof.
  vaultRequestInfo: { request: VaultRequestInfoRequestSchema, response: VaultRequestInfoResponseSchema, who: 'public' },
  submitVaultRequest: { request: SubmitVaultRequestRequestSchema, response: SubmitVaultRequestResponseSchema, who: 'public' },
  // Imports: the handler checks the named service (mayImportScans) in the named company.
  createDraftScan: { request: CreateDraftScanRequestSchema, response: CreateDraftScanResponseSchema, who: mayImportAnyScans },
  addDraftFindings: { request: AddDraftFindingsRequestSchema, response: AddDraftFindingsResponseSchema, who: mayImportAnyScans },
  finishDraftImport: { request: FinishDraftImportRequestSchema, response: FinishDraftImportResponseSchema, who: mayImportAnyScans },
  reviewDraftFindings: { request: ReviewDraftFindingsRequestSchema, response: ReviewDraftFindingsResponseSchema, who: mayImportAnyScans },
  publishScan: { request: PublishScanRequestSchema, response: PublishScanResponseSchema, who: mayImportAnyScans },
  previewPublication: { request: PreviewPublicationRequestSchema, response: PreviewPublicationResponseSchema, who: mayImportAnyScans },
  saveTemplateMapping: { request: SaveTemplateMappingRequestSchema, response: SaveTemplateMappingResponseSchema, who: mayImportAnyScans },
  getPasswordReuseKey: { request: PasswordReuseKeyRequestSchema, response: PasswordReuseKeyResponseSchema, who: mayImportAnyScans },
  discardDraftScan: { request: DiscardDraftScanRequestSchema, response: DiscardDraftScanResponseSchema, who: mayImportAnyScans },
  // Companies, their switches and scan scope (level 7), and the platform's service catalogue (level 9);
  // a company's people and a service's managers are pages of listUsers.
  createCompany: { request: CreateCompanyRequestSchema, response: CreateCompanyResponseSchema, who: mayManageCompanies },
  updateCompany: { request: UpdateCompanyRequestSchema, response: UpdateCompanyResponseSchema, who: mayManageCompanies },
  updateScanScope: { request: UpdateScanScopeRequestSchema, response: UpdateScanScopeResponseSchema, who: mayManageCompanies },
  saveService: { request: SaveServiceRequestSchema, response: SaveServiceResponseSchema, who: mayManageServiceCatalogue },
  // DAST keys: the handler checks the company (a member, or one who sees all, with DAST triggering on).
  createDastKey: { request: CreateDastKeyRequestSchema, response: CreateDastKeyResponseSchema, who: mayManageDastKeys },
  revokeDastKey: { request: RevokeDastKeyRequestSchema, response: RevokeDastKeyResponseSchema, who: mayManageDastKeys },
  // API tokens: the handler checks the company (a member at level 3, or one who sees all).
  createApiToken: { request: CreateApiTokenRequestSchema, response: CreateApiTokenResponseSchema, who: mayManageApiTokens },
  revokeApiToken: { request: RevokeApiTokenRequestSchema, response: RevokeApiTokenResponseSchema, who: mayManageApiTokens },
  // Webhooks: the handler checks the company (a member at level 3, or one who sees all).
  createWebhookEndpoint: {
    request: CreateWebhookEndpointRequestSchema,
    response: CreateWebhookEndpointResponseSchema,
    who: mayManageWebhooks,
  },
  rotateWebhookSecret: { request: RotateWebhookSecretRequestSchema, response: RotateWebhookSecretResponseSchema, who: mayManageWebhooks },
  setWebhookEndpointEnabled: {
    request: SetWebhookEndpointEnabledRequestSchema,
    response: WebhookChangedResponseSchema,
    who: mayManageWebhooks,
  },
  deleteWebhookEndpoint: { request: DeleteWebhookEndpointRequestSchema, response: WebhookChangedResponseSchema, who: mayManageWebhooks },
  resendWebhookDelivery: { request: ResendWebhookDeliveryRequestSchema, response: WebhookChangedResponseSchema, who: mayManageWebhooks },
  // People: company admins act in their own companies on clients only, platform admins on anyone (the handler asks accessChangeRefusal).
  listUsers: { request: ListUsersRequestSchema, response: ListUsersResponseSchema, who: mayManagePeople },
  inviteUser: { request: InviteUserRequestSchema, response: InviteUserResponseSchema, who: mayManagePeople },
  updateUserAccess: { request: UpdateUserAccessRequestSchema, response: ChangedResponseSchema, who: mayManagePeople },
  removeUserFromCompany: { request: RemoveUserFromCompanyRequestSchema, response: ChangedResponseSchema, who: mayManagePeople },
  restoreUserToCompany: { request: RestoreUserToCompanyRequestSchema, response: ChangedResponseSchema, who: mayManagePeople },
  revokeUserSessions: { request: RevokeUserSessionsRequestSchema, response: ChangedResponseSchema, who: mayManagePeople },
  setUserDisabled: { request: SetUserDisabledRequestSchema, response: ChangedResponseSchema, who: mayManageEveryone },
  deleteUser: { request: DeleteUserRequestSchema, response: ChangedResponseSchema, who: mayManageEveryone },
  fillMissingAddresses: {
    request: FillMissingAddressesRequestSchema,
    response: FillMissingAddressesResponseSchema,
    who: mayManageEveryone,
  },
  createEmailKey: { request: CreateEmailKeyRequestSchema, response: CreateEmailKeyResponseSchema, who: mayManageEveryone },
  revokeEmailKey: { request: RevokeEmailKeyRequestSchema, response: RevokeEmailKeyResponseSchema, who: mayManageEveryone },
  saveLocation: { request: SaveLocationRequestSchema, response: SaveLocationResponseSchema, who: mayManageFleet },
  deleteLocation: { request: DeleteLocationRequestSchema, response: DeleteLocationResponseSchema, who: mayManageFleet },
  createAgentEnrolment: { request: CreateEnrolmentRequestSchema, response: CreateEnrolmentResponseSchema, who: mayManageFleet },
  changeAgent: { request: AgentActionRequestSchema, response: AgentActionResponseSchema, who: mayManageFleet },
  // The handler checks the profile's service in the named company (mayImportScans).
  queueScanJob: { request: QueueScanRequestSchema, response: QueueScanResponseSchema, who: mayQueueScans },
  // The handler checks password cracking imports in the named company, and the agent's key and john.
  queuePasswordAudit: { request: QueuePasswordAuditRequestSchema, response: QueuePasswordAuditResponseSchema, who: mayQueueScans },
  cancelScanJob: { request: CancelScanRequestSchema, response: CancelScanResponseSchema, who: mayQueueScans },
} as const satisfies Record<string, CallableContract>

export type CallableName = keyof typeof callables

/** What a caller sends: the request schema's input. */
export type CallableRequest<N extends CallableName> = v.InferInput<(typeof callables)[N]['request']>

/** What the callable's handler receives: the request after its schema (trimmed, lowercased ...). */
export type CallableData<N extends CallableName> = v.InferOutput<(typeof callables)[N]['request']>

export type CallableResponse<N extends CallableName> = v.InferOutput<(typeof callables)[N]['response']>

export const CALLABLE_NAMES = Object.keys(callables) as CallableName[]

export const isCallableName = (name: string): name is CallableName => Object.hasOwn(callables, name)
