/** Contact lists and opt-outs. `listsKeys.all` starts every list key (pages, the wizard's, the picker's). */
export const listsKeys = {
  all: ['lists'] as const,
  page: (page: number) => ['lists', page] as const,
  /** The campaign wizard's lists. */
  wizard: ['lists', 'wizard'] as const,
  picker: {
    search: (q: string) => ['lists', 'picker', q] as const,
    one: (id: string) => ['lists', 'picker-one', id] as const,
  },
  contacts: (listId: string | undefined, page: number) => ['list-contacts', listId, page] as const,
};

export const optOutsKeys = {
  all: ['opt-outs'] as const,
  search: (q: string, page: number) => ['opt-outs', q, page] as const,
};
