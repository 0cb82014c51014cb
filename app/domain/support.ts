// The support contract shared by the browser and the functions: what a support message carries,
// what handleSupportEmail answers and the messages people see. Pure TypeScript and valibot only:
// Node runs it directly and the functions build compiles it into their package.
import * as v from 'valibot'
import { EmailSchema } from './sign-in.ts'

/** Longest message accepted (the form counts towards it); it keeps the mail readable. */
export const SUPPORT_MESSAGE_MAX_LENGTH = 5000

export const SUPPORT_REQUEST_TYPES = ['feature', 'question', 'bug'] as const
export const SupportRequestTypeSchema = v.picklist(SUPPORT_REQUEST_TYPES, 'Choose a request type')
export type SupportRequestType = v.InferOutput<typeof SupportRequestTypeSchema>

export const supportRequestTypeLabels: Record<SupportRequestType, string> = {
  feature: 'Feature request',
  question: 'Question',
  bug: 'Bug report',
}

export const SUPPORT_MESSAGE_REQUIRED = 'Write a message'
export const SUPPORT_MESSAGE_TOO_LONG = `Keep the message under ${SUPPORT_MESSAGE_MAX_LENGTH} characters`

export const SupportRequestSchema = v.strictObject({
  message: v.pipe(
    v.string(SUPPORT_MESSAGE_REQUIRED),
    v.trim(),
    v.minLength(1, SUPPORT_MESSAGE_REQUIRED),
    v.maxLength(SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_MESSAGE_TOO_LONG),
  ),
  request_type: SupportRequestTypeSchema,
})

export type SupportRequest = v.InferOutput<typeof SupportRequestSchema>

/** A message from someone who is not signed in (who cannot sign in, say): the address to answer is theirs to give. */
export const SignedOutSupportRequestSchema = v.strictObject({ ...SupportRequestSchema.entries, email: EmailSchema })

export type SignedOutSupportRequest = v.InferOutput<typeof SignedOutSupportRequestSchema>

export const SupportResponseSchema = v.object({ success: v.boolean() })

export type SupportResponse = v.InferOutput<typeof SupportResponseSchema>

/** support_messages/{id}: every message handleSupportEmail handled, kept whether or not it was mailed. */
export const SUPPORT_MESSAGES_COLLECTION = 'support_messages'

export interface SupportMessageRecord {
  request: SupportRequest
  /** Null for a message sent signed out. */
  uid: string | null
  email: string | null
  /** The sender's company at the time, or null when they had none. */
  company: string | null
  /** Whether the mail reached the support inbox. */
  delivered: boolean
}

/** The stored document of a support message; `createdAt` is the server's time stamp. */
export const supportMessageDocument = <Time>(record: SupportMessageRecord, createdAt: Time) => ({
  message: record.request.message,
  request_type: record.request.request_type,
  uid: record.uid,
  email: record.email,
  company: record.company,
  createdAt,
  delivered: record.delivered,
})

/** The support form's fixed messages, word for word. */
export const supportMessages = {
  sent: 'Message sent: We will get back to you soon.',
  serverFailed: 'Error: Server Failed to send message. Please try again.',
  failed: 'Failed to send message. Please try again.',
} as const
