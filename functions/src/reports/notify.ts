// Notifications of a company's clients: in the app (notifications/{id}) and by email, each as the
// person chose in users_preferences.notifications. Only people who may read the service's report
// are told (results readers for a new critical or high finding), and a mention only reaches those
// named who may read the finding.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { canViewReport, canViewResults, seesAllCompanies, seesInternalComments, type CompanyFlags } from '#domain/access.ts'
import { brand } from '#domain/brand.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import { NOTIFICATIONS_COLLECTION, readNotificationChoices, type NotificationType } from '#domain/notifications.ts'
import { USERS_ACCESS_COLLECTION, readUserAccess, accessFromDocument, userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { adminAuth } from '../admin.ts'
import { appOrigins, mailConfig } from '../config.ts'
import { sendMail } from '../mailer.ts'
import { escapeHtml } from '../sign-in-mail.ts'

export interface CompanyNotice {
  company: string
  service: string
  type: NotificationType
  title: string
  body: string
  /** A same-site path into the reports. */
  link: string
  /** The person whose action this is: not told of it. */
  exceptUid?: string
  /** Only these people (those a comment mentions), if they may see it; analysts included. */
  onlyUids?: readonly string[]
  /** An internal comment's mention: analysts only. */
  analystsOnly?: boolean
}

export interface NotifyResult {
  notified: string[]
  mailed: string[]
}

function noticeMail(notice: CompanyNotice, companyName: string, origin: string | null) {
  const url = origin ? new URL(notice.link, origin).toString() : notice.link
  const subject = `[${brand.name}] ${notice.title}`
  const text = [`${notice.title} (${companyName})`, '', notice.body, '', url, ''].join('\n')
  const e = escapeHtml
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#161b22;font-size:15px;line-height:22px;">
<p style="margin:0 0 8px;font-weight:600;">${e(notice.title)}</p>
<p style="margin:0 0 8px;color:#57606a;">${e(companyName)}</p>
<p style="margin:0 0 16px;white-space:pre-wrap;">${e(notice.body)}</p>
<p style="margin:0;"><a href="${e(url)}">Open in ${e(brand.name)}</a></p>
</body>
</html>
`
  return { subject, text, html }
}

/** Whether the person (uid, users_access data) is one the notice is for: they may see what it tells of. */
export function readsNotice(
  uid: string,
  data: unknown,
  notice: Pick<CompanyNotice, 'company' | 'service' | 'type' | 'exceptUid' | 'onlyUids' | 'analystsOnly'>,
  company: CompanyFlags,
): boolean {
  if (uid === notice.exceptUid) return false
  let stored
  try {
    stored = readUserAccess(data)
  } catch {
    return false
  }
  const access = accessFromDocument(stored, { accessLevel: null, userType: null })
  if (!stored.companies.includes(notice.company) && !seesAllCompanies(access)) return false
  // Company notices are for the client's people; analysts follow their own queues.
  if (!notice.onlyUids && access.userType !== 'client') return false
  if (notice.analystsOnly && !seesInternalComments(access)) return false
  const sees = notice.type === 'new_critical_or_high' || notice.type === 'mention' ? canViewResults : canViewReport
  return sees(access, company, notice.service)
}

/** Tells the company's people who may see the service, each as they chose. Never throws for a mail that fails. */
export async function notifyCompany(db: Firestore, notice: CompanyNotice): Promise<NotifyResult> {
  const companySnapshot = await db.doc(companyPath(notice.company)).get()
  const company = companyFromDocument(notice.company, companySnapshot.data())
  if (!company) return { notified: [], mailed: [] }
  // Named people (a mention) may be analysts who see every company; otherwise the company's members.
  const people = notice.onlyUids
    ? notice.onlyUids.length === 0
      ? []
      : (await db.getAll(...notice.onlyUids.map((uid) => db.doc(userAccessPath(uid))))).filter((person) => person.exists)
    : (await db.collection(USERS_ACCESS_COLLECTION).where('companies', 'array-contains', notice.company).get()).docs
  const readers = people.filter((person) => readsNotice(person.id, person.data(), notice, company))
  if (readers.length === 0) return { notified: [], mailed: [] }

  const preferences = await db.getAll(...readers.map((person) => db.doc(userPreferencesPath(person.id))))
  const notified: string[] = []
  const emailTo: string[] = []
  const batch = db.batch()
  readers.forEach((person, index) => {
    const choices = readNotificationChoices(preferences[index]?.get('notifications'))[notice.type]
    if (choices.inApp) {
      batch.set(db.collection(NOTIFICATIONS_COLLECTION).doc(), {
        uid: person.id,
        type: notice.type,
        company: notice.company,
        service: notice.service,
        title: notice.title,
        body: notice.body,
        link: notice.link,
        read: false,
        createdAt: FieldValue.serverTimestamp(),
      })
      notified.push(person.id)
    }
    if (choices.email) emailTo.push(person.id)
  })
  await batch.commit()

  const mailed: string[] = []
  if (emailTo.length > 0) {
    try {
      const config = mailConfig()
      let origin: string | null = null
      try {
        origin = appOrigins()[0] ?? null
      } catch {
        origin = null
      }
      const { users } = await adminAuth().getUsers(emailTo.map((uid) => ({ uid })))
      const mail = noticeMail(notice, company.companyName, origin)
      for (const user of users) {
        if (!user.email) continue
        await sendMail(config, { to: user.email, ...mail })
        mailed.push(user.uid)
      }
    } catch (error) {
      // The in-app notice stands; the mail is a copy.
      logger.error('notifyCompany: a mail could not be sent', {
        type: notice.type,
        error: error instanceof Error ? error.name : String(error),
      })
    }
  }
  return { notified, mailed }
}
