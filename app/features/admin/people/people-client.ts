// The people callables as the admin pages use them. Loaded with `import()` (Firebase SDK).
import type { CallableRequest } from '#domain/callables.ts'
import { call } from '~/core/call'

export const listPeople = (request: CallableRequest<'listUsers'>) => call('listUsers', request)

export const invitePerson = (request: Omit<CallableRequest<'inviteUser'>, 'url' | 'timeZone'>) =>
  call('inviteUser', { ...request, url: window.location.origin, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })

export const updatePerson = (request: CallableRequest<'updateUserAccess'>) => call('updateUserAccess', request)
export const removeFromCompany = (uid: string, company: string) => call('removeUserFromCompany', { uid, company })
export const restoreToCompany = (uid: string, company: string) => call('restoreUserToCompany', { uid, company })
export const revokeSessions = (uid: string) => call('revokeUserSessions', { uid })
export const setDisabled = (uid: string, disabled: boolean) => call('setUserDisabled', { uid, disabled })
export const deletePerson = (uid: string) => call('deleteUser', { uid })
