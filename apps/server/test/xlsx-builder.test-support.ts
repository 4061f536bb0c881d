/**
 * Builds XLSX files for tests from their XML parts (through the test ZIP writer), so a test can
 * write exactly the markup it is about: sparse cells, every cell type, hostile XML, bombs.
 */
import { type TestZipEntry, type TestZipOptions, zipBuffer } from './zip-writer.test-support.ts';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A worksheet part around `sheetData` rows (`<row>…</row>` markup). */
export function sheetXml(rows: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1"/><sheetData>${rows}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
}

/** A row of inline-string cells from plain values (`null` leaves the cell out). */
export function inlineRow(r: number, values: (string | null)[]): string {
  const cells = values
    .map((v, i) => (v === null ? '' : `<c r="${columnName(i)}${r}" t="inlineStr"><is><t>${xmlEscape(v)}</t></is></c>`))
    .join('');
  return `<row r="${r}">${cells}</row>`;
}

export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function sharedStringsXml(items: string[]): string {
  const body = items.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">${body}</sst>`;
}

/** styles.xml with custom number formats and the cell formats (`s` index → numFmtId). */
export function stylesXml(cellFormats: number[] = [0], numFmts: Record<number, string> = {}): string {
  const fmts = Object.entries(numFmts)
    .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${xmlEscape(code)}"/>`)
    .join('');
  const xfs = cellFormats.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${MAIN}">${fmts ? `<numFmts count="${Object.keys(numFmts).length}">${fmts}</numFmts>` : ''}<fonts count="1"><font/></fonts><cellStyleXfs count="1"><xf numFmtId="22"/></cellStyleXfs><cellXfs count="${cellFormats.length}">${xfs}</cellXfs><dxfs count="1"><dxf><numFmt numFmtId="200" formatCode="dd/mm/yyyy"/></dxf></dxfs></styleSheet>`;
}

export type TestXlsx = {
  /** Worksheets in tab order: each a whole part (see sheetXml), with its tab name and part file name. */
  sheets: { xml: string; name?: string; file?: string }[];
  sharedStrings?: string;
  styles?: string;
  date1904?: boolean;
  /** Parts added or replaced (by path), as text or a full entry (to lie about sizes, methods…). */
  parts?: Record<string, string | Omit<TestZipEntry, 'name'>>;
  omit?: string[];
  zip?: TestZipOptions;
};

/** An XLSX stored the way Excel does: the workbook part last. */
export function xlsxBuffer(book: TestXlsx): Buffer {
  const files = book.sheets.map((s, i) => s.file ?? `sheet${i + 1}.xml`);
  const parts = new Map<string, string | Omit<TestZipEntry, 'name'>>();
  parts.set(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
  );
  parts.set(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  book.sheets.forEach((s, i) => {
    parts.set(`xl/worksheets/${files[i]}`, s.xml);
  });
  if (book.sharedStrings !== undefined) parts.set('xl/sharedStrings.xml', book.sharedStrings);
  parts.set('xl/styles.xml', book.styles ?? stylesXml());
  const rels = book.sheets
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/${files[i]}"/>`)
    .join('');
  parts.set(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}">${rels}<Relationship Id="rId100" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId101" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId102" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/></Relationships>`,
  );
  const sheetList = book.sheets
    .map((s, i) => `<sheet name="${xmlEscape(s.name ?? `Planilha${i + 1}`)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('');
  parts.set(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${book.date1904 ? ' date1904="1"' : ''}/><sheets>${sheetList}</sheets></workbook>`,
  );
  for (const [name, part] of Object.entries(book.parts ?? {})) parts.set(name, part);
  for (const name of book.omit ?? []) parts.delete(name);
  const entries: TestZipEntry[] = [...parts].map(([name, part]) =>
    typeof part === 'string' ? { name, data: part } : { name, ...part },
  );
  return zipBuffer(entries, book.zip);
}
