import { describe, expect, it } from 'vitest';
import { checkCnpjs } from './enrichment.input.ts';

describe('checkCnpjs', () => {
  it('keeps the first 40 characters of an invalid input without cutting an emoji in half', () => {
    // Found by the enrichment fuzz: a lone surrogate in invalid_items made the jsonb insert fail (500).
    const checked = checkCnpjs([`${'a'.repeat(39)}😀 e mais`, `${'b'.repeat(38)}😀 e mais`]);
    expect(checked.invalidItems.map((i) => i.value)).toEqual(['a'.repeat(39), `${'b'.repeat(38)}😀`]);
  });
});
