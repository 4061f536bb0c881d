import type { FileLimit } from '@ecoa/shared';
import { AppError } from '../../../platform/errors/app-error.ts';
import { UPLOAD_ERRORS } from '../../../platform/http/upload.ts';
import { CSV_MALFORMED_MESSAGE } from '../../../platform/text/csv.ts';

/**
 * Every way a spreadsheet can be refused. The codes are stable (the web app translates them);
 * the messages are the Portuguese the API answers with.
 */
export const FILE_ERRORS = {
  EMPTY_FILE: 'O arquivo está vazio.',
  UNSUPPORTED_FILE_TYPE: 'Formato não suportado: envie uma planilha CSV ou XLSX.',
  LEGACY_XLS: 'Planilhas .xls (Excel 97-2003) não são aceitas: salve como .xlsx ou .csv e envie de novo.',
  XLSX_BROKEN: 'A planilha XLSX está corrompida ou incompleta. Abra e salve de novo no Excel, ou exporte como CSV.',
  XLSX_TOO_LARGE:
    'A planilha XLSX passa dos limites de leitura (textos, células ou colunas demais, ou cresce demais ao descompactar). Salve como CSV e envie de novo.',
  CSV_MALFORMED: CSV_MALFORMED_MESSAGE,
  CSV_RAGGED:
    'Muitas linhas do CSV têm número de colunas diferente do cabeçalho: o separador ou as aspas do arquivo parecem errados.',
  NO_DATA_ROWS: 'A planilha não tem linhas de contatos.',
  NO_PHONE_COLUMN: 'Não encontramos uma coluna de telefone. Escolha a coluna de telefone no mapeamento.',
  INVALID_MAPPING: 'O mapeamento de colunas não corresponde às colunas da planilha.',
  FILE_TOO_LARGE: UPLOAD_ERRORS.FILE_TOO_LARGE,
  IMPORT_TOO_LARGE:
    'A importação deste arquivo passou do limite de memória. Divida a lista em arquivos menores e envie de novo.',
  FILE_REQUIRED: UPLOAD_ERRORS.FILE_REQUIRED,
} as const;
export type FileErrorCode = keyof typeof FILE_ERRORS;

export function fileError(code: FileErrorCode, details?: unknown): AppError {
  return new AppError(code, code === 'FILE_TOO_LARGE' ? 413 : 400, FILE_ERRORS[code], details);
}

const MiB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('pt-BR');
const mb = (bytes: number) => count(Math.round(bytes / MiB));

/** What passing each limit means, in the API's Portuguese ("A planilha XLSX …"). */
const LIMIT_PT: Record<FileLimit, (max: number) => string> = {
  entries: (max) => `tem mais de ${count(max)} partes internas`,
  partBytes: (max) => `tem uma parte interna com mais de ${mb(max)} MB descompactada`,
  sheetBytes: (max) => `tem uma aba com mais de ${mb(max)} MB descompactada`,
  totalBytes: (max) => `passa de ${mb(max)} MB descompactada`,
  centralDirectoryBytes: (max) => `tem um índice interno com mais de ${mb(max)} MB`,
  ratio: (max) => `cresce mais de ${count(max)} vezes ao descompactar`,
  sharedStrings: (max) => `tem mais de ${count(max)} textos`,
  sharedStringBytes: (max) => `tem mais de ${mb(max)} MB de textos`,
  styles: (max) => `tem mais de ${count(max)} formatos de célula`,
  columns: (max) => `tem mais de ${count(max)} colunas`,
  cellChars: (max) => `tem uma célula com mais de ${count(max)} caracteres`,
  rowChars: (max) => `tem uma linha com mais de ${count(max)} caracteres`,
  xmlToken: (max) => `tem um trecho de XML com mais de ${count(max)} caracteres`,
  heapMb: (max) => `precisa de mais de ${count(max)} MB de memória para ser lida`,
  seconds: (max) => `levou mais de ${count(max)} segundos para ser lida`,
};

/**
 * A reading limit passed, named in the message and in `details` ({limit, max}) so the web says
 * which one in the user's language. An XLSX is refused as too large for its reader (a CSV is
 * suggested); any other file as too large to import at once.
 */
export function fileLimitError(code: 'XLSX_TOO_LARGE' | 'IMPORT_TOO_LARGE', limit: FileLimit, max: number): AppError {
  const message =
    code === 'XLSX_TOO_LARGE'
      ? `A planilha XLSX ${LIMIT_PT[limit](max)}: é mais do que conseguimos ler com segurança. Salve como CSV e envie de novo.`
      : `A importação deste arquivo ${LIMIT_PT[limit](max).replace('ser lida', 'terminar')}. Divida a lista em arquivos menores e envie de novo.`;
  return new AppError(code, 400, message, { limit, max });
}

export function isFileError(err: unknown): err is AppError {
  return err instanceof AppError && err.code in FILE_ERRORS;
}

/**
 * A worker thread that died of its heap limit (ERR_WORKER_OUT_OF_MEMORY) as the file error the
 * user sees: an XLSX is refused as too large for its reader, any other file as too large to
 * import at once. Undefined for any other error.
 */
export function workerMemoryError(err: unknown, kind: 'csv' | 'xlsx', heapMb: number): AppError | undefined {
  if ((err as { code?: unknown } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return undefined;
  return fileLimitError(kind === 'xlsx' ? 'XLSX_TOO_LARGE' : 'IMPORT_TOO_LARGE', 'heapMb', heapMb);
}
