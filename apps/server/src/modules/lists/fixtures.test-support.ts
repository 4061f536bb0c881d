/** The files under `fixtures/` that the lists tests read, and what the Excel export among them maps to. */
import fs from 'node:fs';
import path from 'node:path';

export const fixturePath = (name: string) => path.resolve(import.meta.dirname, 'fixtures', name);
export const fixtureBytes = (name: string) => fs.readFileSync(fixturePath(name));

/** `excel-br-windows1252.csv`: a header, the name in A, the phone in B, company and city as fields. */
export const EXCEL_BR_MAPPING = {
  hasHeader: true,
  phone: 1,
  name: 0,
  fields: [
    { column: 2, key: 'empresa' },
    { column: 3, key: 'cidade' },
  ],
};
