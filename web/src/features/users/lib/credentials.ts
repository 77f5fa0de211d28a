/** Whether the form changes the e-mail or the password: the changes that need the current password. */
export const changesCredentials = (v: { email?: string; password?: string }, currentEmail: string) =>
  !!v.password || (v.email ?? '').trim().toLowerCase() !== currentEmail.toLowerCase();
