/**
 * Who a member is: sessions, roles, signing in (the form and its one-time codes), account email
 * (confirm, reset, change) and profiles.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export {
  assertEmailVerified, changeEmailSchema, confirmEmailToken, deleteStaleEmailTokens, forgotSchema,
  isEmailUnverified, mailJobSchema, processMailJob, requestEmailChange, requestPasswordReset,
  resendVerification, resetPassword, resetSchema, verifySchema,
} from './account-email.ts';
export { editProfile, editProfileSchema, getUserInfo, rememberMemberLocale } from './profiles.ts';
export { hasRole, isUserRole, requireRole, setRoleByEmail } from './roles.ts';
export { createSession, deleteExpiredSessions, findMemberPageState, findSession, invalidateSession, type FoundSession, type SessionUser } from './sessions.ts';
export {
  buildReturnLocation, consumeSsoCode, deleteStaleSsoCodes, exchangeSsoCode,
  exchangeSsoCodeInBrowser, issueSsoCode, issueWebviewCode, SSO_CODE_TTL_MS, type RequestMeta,
} from './sso-codes.ts';
export { authenticate, loginSchema, registerAccount, registerSchema, signIn, signUp } from './sso.ts';
export {
  memberProfileColumns, memberRefColumns, toUserInfo, toUserProfile, type MemberProfileRow,
} from './member-projection.ts';
