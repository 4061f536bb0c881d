/** The user's API keys. */
export const apiKeysKeys = {
  all: ['api-keys'] as const,
};
