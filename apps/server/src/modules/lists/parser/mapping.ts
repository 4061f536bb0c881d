import { type ColumnMapping, normalizeBrazilianPhone, type PreviewColumn } from '@ecoa/shared';
import { AppError } from '../../../platform/errors/app-error.ts';

const PHONE_HEADER = /^(tel|fone|phone|cel|whats|zap|mobile|movel|numero|contato_?tel|ddd_?tel|n_?tel)/;
const PHONE_HEADER_ANY = /(telefone|celular|whatsapp|phone|mobile|fone)/;
const NAME_HEADER = /^(nome|name|cliente|contato$|razao_social|first_?name|full_?name|destinatario|responsavel)/;
const RESERVED_KEYS = new Set(['telefone', 'nome', 'phone', 'name']);

/** `Razão Social` → `razao_social`; what `{variável}` a column becomes. */
export function slugifyHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
}

export function columnCountOf(rows: string[][]): number {
  let n = 0;
  for (const r of rows) if (r.length > n) n = r.length;
  return n;
}

function phoneShares(rows: string[][], columns: number): number[] {
  const shares: number[] = [];
  for (let c = 0; c < columns; c++) {
    let filled = 0;
    let ok = 0;
    for (const row of rows) {
      const cell = row[c] ?? '';
      if (cell.trim() === '') continue;
      filled++;
      if (normalizeBrazilianPhone(cell).ok) ok++;
    }
    shares.push(rows.length === 0 ? 0 : ok / Math.max(filled, rows.length * 0.5, 1));
  }
  return shares;
}

/** Does the first row look like a header: text where the rest has phones, or known column names? */
export function detectHeader(rows: string[][]): boolean {
  const first = rows[0];
  if (!first) return false;
  if (first.some((cell) => normalizeBrazilianPhone(cell).ok)) return false;
  const slugs = first.map(slugifyHeader);
  if (slugs.some((s) => PHONE_HEADER.test(s) || PHONE_HEADER_ANY.test(s) || NAME_HEADER.test(s))) return true;
  const rest = rows.slice(1);
  if (rest.length === 0) return false;
  const shares = phoneShares(rest, first.length);
  // A column of phones under a non-phone, non-numeric first cell.
  return shares.some((share, i) => share >= 0.5 && /[a-zA-Z\u00c0-\u00ff]/.test(first[i] ?? ''));
}

function uniqueKeys(headers: (string | null)[]): string[] {
  const used = new Set<string>(RESERVED_KEYS);
  return headers.map((header, i) => {
    let base = header ? slugifyHeader(header) : '';
    if (!base || /^\d/.test(base)) base = `coluna_${i + 1}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    return key;
  });
}

/** The columns of a sample of the first rows, with their detected roles. */
export function describeColumns(rows: string[][], hasHeader: boolean): PreviewColumn[] {
  const columns = columnCountOf(rows);
  const headers: (string | null)[] = [];
  for (let c = 0; c < columns; c++) headers.push(hasHeader ? (rows[0]?.[c] ?? '').trim() || null : null);
  const data = hasHeader ? rows.slice(1) : rows;
  const shares = phoneShares(data, columns);
  const keys = uniqueKeys(headers);
  return headers.map((header, index) => ({
    index,
    header,
    key: keys[index]!,
    phoneShare: Math.round(shares[index]! * 100) / 100,
    samples: data.slice(0, 5).map((r) => r[index] ?? ''),
  }));
}

/**
 * Detects the mapping from a sample of the first rows: header or not, the phone column (by
 * header name and by how many cells are valid phones), the name column, the rest as fields.
 * Throws NO_PHONE_COLUMN when no column looks like phones.
 */
export function detectMapping(rows: string[][]): ColumnMapping {
  if (rows.length === 0) throw new AppError('NO_DATA_ROWS');
  const hasHeader = detectHeader(rows);
  const columns = describeColumns(rows, hasHeader);
  const slug = (c: PreviewColumn) => (c.header ? slugifyHeader(c.header) : '');

  let phone: PreviewColumn | undefined;
  const byHeader = columns.filter((c) => PHONE_HEADER.test(slug(c)) || PHONE_HEADER_ANY.test(slug(c)));
  const ranked = [...columns].sort((a, b) => b.phoneShare - a.phoneShare);
  phone = byHeader.sort((a, b) => b.phoneShare - a.phoneShare)[0];
  if (!phone || (phone.phoneShare === 0 && (ranked[0]?.phoneShare ?? 0) >= 0.5)) phone = ranked[0];
  if (!phone || (phone.phoneShare === 0 && !byHeader.includes(phone))) throw new AppError('NO_PHONE_COLUMN');

  let name = columns.find((c) => c !== phone && NAME_HEADER.test(slug(c)));
  if (!name && !hasHeader) {
    const data = rows;
    name = columns.find((c) => {
      if (c === phone || c.phoneShare > 0) return false;
      const cells = data.map((r) => r[c.index] ?? '').filter((v) => v.trim() !== '');
      const wordy = cells.filter((v) => /^[\p{L}][\p{L} .'-]+$/u.test(v.trim()));
      return cells.length > 0 && wordy.length / cells.length >= 0.8;
    });
  }
  return buildMapping(columns, { hasHeader, phone: phone.index, name: name?.index ?? null });
}

/** Completes a mapping: every column that is neither phone nor name becomes a field. */
export function buildMapping(
  columns: PreviewColumn[],
  chosen: { hasHeader: boolean; phone: number; name: number | null },
): ColumnMapping {
  return {
    hasHeader: chosen.hasHeader,
    phone: chosen.phone,
    name: chosen.name,
    fields: columns
      .filter((c) => c.index !== chosen.phone && c.index !== chosen.name)
      .map((c) => ({ column: c.index, key: c.key })),
  };
}

/** Checks a mapping the user sent against the file's columns. */
export function validateMapping(mapping: ColumnMapping, columnCount: number): ColumnMapping {
  const inRange = (i: number) => Number.isInteger(i) && i >= 0 && i < columnCount;
  if (!inRange(mapping.phone)) throw new AppError('NO_PHONE_COLUMN');
  if (mapping.name !== null && (!inRange(mapping.name) || mapping.name === mapping.phone)) {
    throw new AppError('INVALID_MAPPING');
  }
  const keys = new Set<string>();
  for (const f of mapping.fields) {
    if (!inRange(f.column) || f.column === mapping.phone || f.column === mapping.name)
      throw new AppError('INVALID_MAPPING');
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(f.key) || keys.has(f.key) || RESERVED_KEYS.has(f.key)) {
      throw new AppError('INVALID_MAPPING');
    }
    keys.add(f.key);
  }
  return mapping;
}
