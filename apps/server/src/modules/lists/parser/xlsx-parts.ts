/**
 * The workbook's small parts, read through the streaming XML tokenizer: the relations (which file
 * is which part), the workbook (sheet order, the 1904 date system) and the styles (which cells
 * are dates). The big ones, shared strings and worksheets, have files of their own.
 */
import path from 'node:path';
import { type ZipArchive, type ZipEntry, ZipLimitError } from '../../../platform/archive/zip.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { type XmlAttributes, type XmlHandler, XmlTokenizer } from '../../../platform/xml/xml.ts';
import type { XlsxLimits } from './xlsx-limits.ts';

// ---------------------------------------------------------------------------------------------
// Streaming a part through a handler

export async function parsePart(
  zip: ZipArchive,
  entry: ZipEntry,
  handler: XmlHandler & { done?: boolean },
  limits: XlsxLimits,
): Promise<void> {
  let stream: Awaited<ReturnType<ZipArchive['openEntry']>> | undefined;
  try {
    stream = await zip.openEntry(entry, { maxBytes: limits.partBytes });
    const tokenizer = new XmlTokenizer(handler, limits.xmlToken);
    for await (const chunk of stream) {
      tokenizer.write(chunk as Buffer);
      if (handler.done) return;
    }
    tokenizer.end();
  } catch (err) {
    if (err instanceof ZipLimitError && err.limit === 'entryBytes') {
      throw new AppError('XLSX_TOO_LARGE', { limit: 'partBytes', max: limits.partBytes });
    }
    throw err;
  } finally {
    stream?.destroy();
  }
}

/** A handler that ignores text: relations, workbook and styles only read attributes. */
abstract class AttributesHandler implements XmlHandler {
  wantText = false;
  abstract open(name: string, attributes: XmlAttributes): void;
  close(_name: string): void {}
  text(_text: string): void {}
}

type Relation = { type: string; target: string };

export class RelationsHandler extends AttributesHandler {
  readonly byId = new Map<string, Relation>();
  constructor(private readonly baseDir: string) {
    super();
  }
  open(name: string, a: XmlAttributes): void {
    if (name !== 'Relationship' || a.get('TargetMode') === 'External') return;
    const id = a.get('Id');
    const target = a.get('Target');
    if (id === undefined || target === undefined) return;
    this.byId.set(id, { type: a.get('Type') ?? '', target: resolveTarget(this.baseDir, target) });
  }
  ofType(suffix: string): string | undefined {
    for (const rel of this.byId.values()) if (rel.type.endsWith(suffix)) return rel.target;
    return undefined;
  }
}

/** A relation target → the zip path it names (relative to the source part's folder, or absolute). */
function resolveTarget(baseDir: string, target: string): string {
  const joined = target.startsWith('/') ? target.slice(1) : path.posix.join(baseDir, target);
  return path.posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

export function relsPathOf(partPath: string): string {
  const dir = path.posix.dirname(partPath);
  return `${dir === '.' ? '' : `${dir}/`}_rels/${path.posix.basename(partPath)}.rels`;
}

export class WorkbookHandler extends AttributesHandler {
  date1904 = false;
  readonly sheetRelIds: string[] = [];
  open(name: string, a: XmlAttributes): void {
    if (name === 'sheet') {
      const id = a.get('id');
      if (id !== undefined) this.sheetRelIds.push(id);
    } else if (name === 'workbookPr') {
      const v = a.get('date1904');
      this.date1904 = v === '1' || v === 'true';
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Styles: which cell formats show numbers as dates

/** Built-in number formats that are dates or times (ECMA-376 18.8.30, and the East Asian ones). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/** A custom format code shows a date or time when, outside quotes, brackets and escapes, it has d/m/y/h/s. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[\\_*]./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

export class StylesHandler extends AttributesHandler {
  constructor(private readonly limits: XlsxLimits) {
    super();
  }
  private readonly customDates = new Map<number, boolean>();
  private readonly xfFormats: number[] = [];
  private section = '';

  open(name: string, a: XmlAttributes): void {
    if (name === 'numFmts' || name === 'cellXfs' || name === 'cellStyleXfs' || name === 'dxfs') {
      this.section = name;
    } else if (name === 'numFmt' && this.section === 'numFmts') {
      const id = Number(a.get('numFmtId'));
      if (Number.isInteger(id)) this.customDates.set(id, isDateFormat(a.get('formatCode') ?? ''));
    } else if (name === 'xf' && this.section === 'cellXfs') {
      if (this.xfFormats.length >= this.limits.styles)
        throw new AppError('XLSX_TOO_LARGE', { limit: 'styles', max: this.limits.styles });
      this.xfFormats.push(Number(a.get('numFmtId') ?? 0));
    }
  }
  override close(name: string): void {
    if (name === this.section) this.section = '';
  }

  /** Per cell format index (a cell's `s`): 1 when it shows a date. */
  dateStyles(): Uint8Array {
    const out = new Uint8Array(this.xfFormats.length);
    this.xfFormats.forEach((id, i) => {
      const custom = this.customDates.get(id);
      out[i] = (custom ?? BUILTIN_DATE_FORMATS.has(id)) ? 1 : 0;
    });
    return out;
  }
}
