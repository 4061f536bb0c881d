/**
 * The bench's rows as a real XLSX, written by exceljs's streaming writer (another
 * implementation than our reader, with shared strings and styles as Excel writes them):
 * phones in digits only become numeric cells, the rest text; a date-formatted signup column.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { benchRows } from './lists-import.bench.ts';

export async function generateXlsx(file: string, rows: number): Promise<{ bytes: number }> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = book.addWorksheet('Contatos');
  sheet.getColumn(5).numFmt = 'dd/mm/yyyy';
  sheet.addRow(['nome', 'telefone', 'empresa', 'cidade', 'cadastro']).commit();
  let i = 0;
  for (const [name, tel, company, city] of benchRows(rows)) {
    const phone = /^\d{10,13}$/.test(tel) ? Number(tel) : tel;
    sheet.addRow([name, phone, company, city, new Date(Date.UTC(2020, 0, 1 + (i++ % 1500)))]).commit();
  }
  sheet.commit();
  await book.commit();
  return { bytes: fs.statSync(file).size };
}
