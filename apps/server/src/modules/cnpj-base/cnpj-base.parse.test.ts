/** The Receita's layout as read: quoting, latin1, columns, phones. No database. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { findCnpjFiles, readCnpjRows } from './cnpj-base.files.ts';
import { parseDecimalComma, toCity, toCompany, toEstablishment } from './cnpj-base.rows.ts';

const line = (fields: string[]) => `${fields.map((f) => `"${f.replaceAll('"', '""')}"`).join(';')}\n`;

/** 30 fields with the given ones set (index → value). */
function establishmentFields(set: Record<number, string>): string[] {
  const fields = Array.from({ length: 30 }, () => '');
  Object.assign(fields, { 0: '12345678', 1: '0001', 2: '95', 5: '02', 11: '4711302', 19: 'SP', 20: '7107' }, set);
  return fields;
}

async function rowsOf(file: string): Promise<string[][]> {
  const [source] = findCnpjFiles(path.dirname(file));
  const rows: string[][] = [];
  for await (const batch of readCnpjRows(source!, 2)) rows.push(...batch);
  return rows;
}

describe('the Receita layout', () => {
  it('reads quoted latin1 fields, "" escapes, ; inside quotes, and maps an establishment', async () => {
    const dir = tempDir('cnpj-parse-');
    const file = path.join(dir, 'K3241.K03200Y0.D51108.ESTABELE');
    const text =
      line(
        establishmentFields({
          4: 'BAR "DO ZÉ"; FILIAL',
          21: '11',
          22: '912345678',
          23: '20',
          24: '912345678', // DDD 20 does not exist: dropped
          25: '11',
          26: '1234', // an invalid fax: dropped
          27: 'Contato@Exemplo.COM.BR',
        }),
      ) +
      line(
        establishmentFields({ 0: '87654321', 2: '00', 5: '08', 21: '21', 22: '32345678', 25: '21', 26: '22345678' }),
      ) +
      line(establishmentFields({ 0: '11111111', 22: '', 24: '', 26: '' }));
    fs.writeFileSync(file, Buffer.from(text, 'latin1'));
    const rows = await rowsOf(file);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveLength(30);
    expect(rows[0]![4]).toBe('BAR "DO ZÉ"; FILIAL');
    const cities = new Map([['7107', 'SÃO PAULO']]);
    expect(toEstablishment(rows[0]!, cities)).toEqual({
      cnpj: '12345678000195',
      basico: '12345678',
      tradeName: 'BAR "DO ZÉ"; FILIAL',
      situation: 2,
      cnae: '4711302',
      uf: 'SP',
      city: 'SÃO PAULO',
      phones: ['+5511912345678'],
      email: 'contato@exemplo.com.br',
    });
    // A valid fax is kept, after the phones.
    expect(toEstablishment(rows[1]!, cities)).toMatchObject({
      situation: 8,
      phones: ['+552132345678', '+552122345678'],
    });
    // Empty phones, empty trade name and e-mail → nothing / null.
    expect(toEstablishment(rows[2]!, cities)).toMatchObject({ phones: [], tradeName: null, email: null });
  });

  it('keeps alphanumeric CNPJs upper-cased and refuses rows that cannot be a CNPJ', () => {
    const cities = new Map<string, string>();
    expect(toEstablishment(establishmentFields({ 0: '12abc345', 1: '01de', 2: '35' }), cities)?.cnpj).toBe(
      '12ABC34501DE35',
    );
    expect(toEstablishment(establishmentFields({ 0: '1234' }), cities)).toBeNull();
    expect(toEstablishment(establishmentFields({}).slice(0, 29), cities)).toBeNull();
    expect(toEstablishment(establishmentFields({ 5: 'x' }), cities)).toBeNull();
  });

  it('stores text without the characters PostgreSQL refuses (a NUL once failed a whole import)', () => {
    // Found by the CNPJ base fuzz: one NUL byte in a latin1 field → "invalid byte sequence" on insert.
    const record = toEstablishment(
      establishmentFields({ 4: 'BAR\u0000 DO\tZÉ\u0081', 11: '47\u000011302', 27: 'a@b.com\u0007' }),
      new Map(),
    );
    expect(record).toMatchObject({ tradeName: 'BAR DO ZÉ', cnae: '4711302', email: 'a@b.com' });
    expect(toCompany(['12345678', ' ACME\u0000 LTDA\n', '', '', '', '', ''])).toEqual({
      basico: '12345678',
      companyName: 'ACME LTDA',
    });
    expect(toCity(['7107', 'SÃO\u0000 PAULO\r'])).toEqual(['7107', 'SÃO PAULO']);
  });

  it('reads companies (decimal comma capital) and cities', async () => {
    const dir = tempDir('cnpj-parse-');
    const file = path.join(dir, 'K3241.K03200Y0.D51108.EMPRECSV');
    fs.writeFileSync(
      file,
      Buffer.from(line(['12345678', 'JOÃO FICTÍCIO; COMÉRCIO LTDA', '2062', '49', '1000,50', '01', '']), 'latin1'),
    );
    const [row] = await rowsOf(file);
    expect(toCompany(row!)).toEqual({ basico: '12345678', companyName: 'JOÃO FICTÍCIO; COMÉRCIO LTDA' });
    expect(parseDecimalComma(row![4]!)).toBe(1000.5);
    expect(toCity(['7107', 'SÃO PAULO'])).toEqual(['7107', 'SÃO PAULO']);
    expect(toCity(['', 'X'])).toBeNull();
  });

  it('finds the files of a folder: cities, companies, establishments, zips before extracted ones', () => {
    const dir = tempDir('cnpj-files-');
    for (const name of [
      'Estabelecimentos10.zip',
      'Estabelecimentos2.zip',
      'Empresas0.zip',
      'Municipios.zip',
      'Socios0.zip',
      'K3241.K03200Y0.D51108.ESTABELE',
      'F.K03200$Z.D51108.MUNICCSV',
      'readme.txt',
    ]) {
      fs.writeFileSync(path.join(dir, name), '');
    }
    expect(findCnpjFiles(dir).map((f) => f.name)).toEqual([
      'Municipios.zip',
      'Empresas0.zip',
      'Estabelecimentos2.zip',
      'Estabelecimentos10.zip',
    ]);
  });
});
