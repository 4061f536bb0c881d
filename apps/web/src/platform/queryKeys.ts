/** The query keys of what the platform itself reads: the signed-in user and the run-time settings. */
export const platformKeys = {
  me: ['me'] as const,
  publicConfig: ['public-config'] as const,
};
