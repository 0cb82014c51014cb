// vaultLinkInfo: what a link is, who sent it and when it expires, for the page before Reveal.
// Changes nothing, so link previews and mail scanners spend nothing.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { lookAtLink } from './link-store.ts'

export const vaultLinkInfo = defineCallable('vaultLinkInfo', {}, (_caller, request) =>
  lookAtLink(adminDb(), request.id, request.findToken, Date.now()),
)
