/** The user's audios. `all` starts every audio key (the pages and the pickers'). */
export const audiosKeys = {
  all: ['audios'] as const,
  page: (page: number) => ['audios', page] as const,
  picker: {
    search: (q: string) => ['audios', 'picker', q] as const,
    one: (id: string) => ['audios', 'picker-one', id] as const,
  },
};
