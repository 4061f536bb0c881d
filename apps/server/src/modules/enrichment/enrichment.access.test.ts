import { describe, expect, it } from 'vitest';
import { mayEnrich } from './enrichment.access.ts';

describe('mayEnrich (the spec rule, kept in the enrichment module)', () => {
  const reads: string[] = [];
  const permissions =
    (list: string[]) =>
    async (userId: string): Promise<readonly string[]> => {
      reads.push(userId);
      return list;
    };

  it("allows administrators without reading their permissions, users only with 'all'", async () => {
    reads.length = 0;
    expect(await mayEnrich({ id: 'a', accessLevel: 'ADMINISTRATOR' }, permissions([]))).toBe(true);
    expect(reads).toEqual([]);
    expect(await mayEnrich({ id: 'u', accessLevel: 'USER' }, permissions(['all']))).toBe(true);
    expect(await mayEnrich({ id: 'v', accessLevel: 'USER' }, permissions([]))).toBe(false);
    expect(await mayEnrich({ id: 'w', accessLevel: 'USER' }, permissions(['some']))).toBe(false);
    expect(reads).toEqual(['u', 'v', 'w']);
  });
});
