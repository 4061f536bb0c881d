/** The signed-in user's own settings. */
export const settingsKeys = {
  profile: ['settings', 'profile'] as const,
  sessions: ['settings', 'sessions'] as const,
};
