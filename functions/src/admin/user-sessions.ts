// revokeUserSessions, setUserDisabled and deleteUser: end a person's sign-ins (claims.revoked,
// which their open pages watch, plus Auth's refresh tokens), switch their account off or on, or
// remove it with its access and preferences.
import { FieldValue } from 'firebase-admin/firestore'
import { userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { accessSnapshot, changePerson } from './people.ts'

export const revokeUserSessions = defineCallable('revokeUserSessions', {}, async (caller, { uid }) => {
  const changed = await changePerson(adminDb(), caller, uid, {
    action: 'user.sessions_revoked',
    after: () => null,
    extra: { 'claims.revoked': FieldValue.serverTimestamp() },
    beforeWrite: () => adminAuth().revokeRefreshTokens(uid),
    snapshots: () => ({ before: {}, after: { revoked: true } }),
  })
  return { changed }
})

export const setUserDisabled = defineCallable('setUserDisabled', {}, async (caller, { uid, disabled }) => {
  const auth = adminAuth()
  const user = await auth.getUser(uid).catch(() => null)
  if (user?.disabled === disabled) return { changed: false }
  const changed = await changePerson(adminDb(), caller, uid, {
    action: disabled ? 'user.disabled' : 'user.enabled',
    after: () => null,
    selfForbidden: true,
    // Disabling also ends the open sessions; enabling leaves users_access as it is.
    extra: disabled ? { 'claims.revoked': FieldValue.serverTimestamp() } : undefined,
    beforeWrite: async () => {
      await auth.updateUser(uid, { disabled })
      if (disabled) await auth.revokeRefreshTokens(uid)
    },
    snapshots: () => ({ before: { disabled: !disabled }, after: { disabled } }),
  })
  return { changed }
})

export const deleteUser = defineCallable('deleteUser', {}, async (caller, { uid }) => {
  const auth = adminAuth()
  const changed = await changePerson(adminDb(), caller, uid, {
    action: 'user.deleted',
    after: () => null,
    remove: [userAccessPath(uid), userPreferencesPath(uid)],
    beforeWrite: () =>
      auth.deleteUser(uid).catch((error: unknown) => {
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error
      }),
    snapshots: (before) => ({ before: accessSnapshot(before) ?? {}, after: {} }),
  })
  return { changed }
})
