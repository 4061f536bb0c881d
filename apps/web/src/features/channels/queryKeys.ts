export const channelsKeys = {
  /** One test message's status, live. */
  message: (id: string) => ['message', id] as const,
  /** The carriers' health (administrators). */
  health: ['admin-channels'] as const,
};
