// A notification outside the page (a new critical finding, a completed retest): the desktop's own
// in the app, the browser's where the person allowed them, nothing otherwise (the page's own
// notices still show).
import { invokeDesktop, isDesktopApp } from './desktop'

export interface SystemNotice {
  title: string
  body: string
}

export type NoticeOutcome = 'shown' | 'not-allowed'

export async function showSystemNotification(notice: SystemNotice): Promise<NoticeOutcome> {
  if (isDesktopApp()) {
    await invokeDesktop('notify', { title: notice.title, body: notice.body })
    return 'shown'
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return 'not-allowed'
  new Notification(notice.title, { body: notice.body })
  return 'shown'
}
