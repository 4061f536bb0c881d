import { MESSAGES } from '../messages.ts';
import type { FileLimit } from '../schemas/lists.ts';

/**
 * Words the catalogue's composed messages share (`catalogue.ts`). Each is what the API answers in
 * Portuguese; the web translates by code and key, never these texts.
 */

/**
 * VALIDATION_FAILED's texts by key: the spec's field messages (section 5, translated on the web
 * under `validation.<key>`) and the server's own checks (the web shows its generic text for them).
 * The API names the key in `details.messageKey`.
 */
export const VALIDATION_MESSAGES = {
  ...MESSAGES,
  nameTooLong: 'O nome pode ter até 120 caracteres.',
  idempotencyKeyTooLong: 'Idempotency-Key: no máximo 200 caracteres.',
  adjustmentZero: 'O valor do ajuste não pode ser 0',
  apiKeyName: 'Dê um nome à chave, com até 80 caracteres.',
  apiKeyScopes: 'Escolha ao menos uma permissão válida para a chave.',
  apiRatePerSecond: 'O limite da API deve ser um número inteiro de 1 a 1.000 requisições por segundo.',
} as const;
export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

const KEY_BY_VALIDATION_MESSAGE = new Map<string, ValidationKey>(
  (Object.entries(VALIDATION_MESSAGES) as [ValidationKey, string][]).map(([key, text]) => [text, key]),
);

/**
 * Which shared validation message a schema's issue carries (zod keeps only its text): the shared
 * schemas build their issues from these constants, so the text names its key exactly.
 */
export function validationKeyOf(message: string | undefined): ValidationKey | undefined {
  return message === undefined ? undefined : KEY_BY_VALIDATION_MESSAGE.get(message);
}

/** Which abuse limit a 429 passed, as the sentence that opens its message. */
export const RATE_LIMIT_SUBJECTS = {
  codeEmail: 'Muitas solicitações de código para este e-mail.',
  codeIp: 'Muitas solicitações de código a partir desta rede.',
  signupIp: 'Muitos cadastros a partir desta rede.',
  login: 'Muitas tentativas de login.',
} as const;
export type RateLimitSubject = keyof typeof RATE_LIMIT_SUBJECTS;

/** "1 minuto" / "N minutos" for a wait in seconds (rounded up to whole minutes). */
export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

const MiB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('pt-BR');
const mb = (bytes: number) => count(Math.round(bytes / MiB));

/** What passing each reading limit means ("A planilha XLSX …"). */
export const FILE_LIMIT_PT: Record<FileLimit, (max: number) => string> = {
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
 * What keeps a campaign from starting: the estimate lists them (`{code, message}`), and a start
 * refused for them answers 400 with the first one's code and message (`CAMPAIGN_PROBLEM`).
 */
export const CAMPAIGN_PROBLEMS = {
  LISTS_REQUIRED: 'Escolha ao menos uma lista.',
  LIST_NOT_FOUND: 'Uma das listas não existe mais.',
  LIST_NOT_READY: 'Uma das listas ainda não terminou de importar.',
  AUDIO_NOT_FOUND: 'O áudio escolhido não existe mais.',
  TRACKED_LINK_NOT_FOUND: 'O link rotativo escolhido não existe mais.',
  NO_RECIPIENTS: 'Nenhum contato das listas pode receber esta campanha.',
  VOICE_PROMPT_AMBIGUOUS: 'Escolha um áudio ou um texto para falar, não os dois.',
  VOICE_PROMPT_REQUIRED: 'Escolha um áudio ou escreva o texto que a ligação vai falar.',
  TEXT_REQUIRED: 'Escreva o texto da mensagem.',
  TEMPLATE_REQUIRED: 'Escolha o modelo de mensagem do WhatsApp.',
  RCS_CONTENT_AMBIGUOUS: 'Envie um texto ou um cartão, não os dois.',
  RCS_CONTENT_REQUIRED: 'Escreva o texto ou monte o cartão da mensagem RCS.',
  TRACKED_LINK_MISSING: 'Escolha para onde o {link} da mensagem leva.',
  TRACKED_LINK_UNUSED: 'Coloque {link} no texto onde o link deve aparecer.',
} as const;
export type CampaignProblemCode = keyof typeof CAMPAIGN_PROBLEMS;
export type CampaignProblem = { code: CampaignProblemCode; message: string };

/** One problem as the estimate lists it. */
export const campaignProblem = (code: CampaignProblemCode): CampaignProblem => ({
  code,
  message: CAMPAIGN_PROBLEMS[code],
});
