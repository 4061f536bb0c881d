import type { CreditType } from '../enums.ts';
import { MAX_ENRICHMENT_CNPJS } from '../schemas/enrichment.ts';
import { LEDGER_MESSAGES } from '../schemas/ledger.ts';
import type { FileLimit } from '../schemas/lists.ts';
import {
  CAMPAIGN_PROBLEMS,
  type CampaignProblemCode,
  FILE_LIMIT_PT,
  minutesText,
  RATE_LIMIT_SUBJECTS,
  type RateLimitSubject,
  VALIDATION_MESSAGES,
  type ValidationKey,
} from './texts.ts';

/**
 * Every error the server raises, once: its HTTP status, the Portuguese `message` the API answers
 * with (a text, or composed from the error's `details` and message-only `vars`), and `params`,
 * the names in `details` the web's translation uses. The web translates `errors.codes.<CODE>`
 * with `details` as its parameters. `operator` errors are for whoever runs the server (a CLI, the
 * start): they are never an HTTP answer and need no translation. `carrier` errors are the
 * refusals of the carriers' webhooks (`/api/webhooks/…`): answered to a carrier's servers, never to
 * the web app, in English (what its logs show the carrier's staff), with no translation.
 */
export type ErrorEntry = {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: each entry types its own inputs; ErrorArgs reads them back.
  readonly message: string | ((details: any, vars: any) => string);
  readonly params?: readonly string[];
  readonly audience?: 'operator' | 'carrier';
};

const NOT_FOUND_TEXTS = {
  testCheckout: 'Pagamento de teste indisponível.',
  stripe: 'Stripe não está configurado.',
} as const;
const UNAUTHORIZED_TEXTS = {
  expired: 'Sessão expirada. Entre novamente.',
  signIn: 'Faça login para continuar.',
  metricsToken: 'Token de métricas ausente ou inválido.',
} as const;

/** A carrier webhook's refusal that states one fact: its status and sentence. */
const carrier = <const S extends number, const M extends string>(status: S, message: M) =>
  ({ status, message, audience: 'carrier' }) as const;
/** A carrier webhook's refusal whose sentence names what was wrong (`vars.why`). */
const carrierVariants = <const S extends number, const T extends Record<string, string>>(status: S, texts: T) =>
  ({ status, message: (_: undefined, v: { why: keyof T }) => texts[v.why] as string, audience: 'carrier' }) as const;

/** An operator's refusal: the command's own sentence (paths, counts, the cause). */
const operator = {
  status: 409,
  message: (_: { pid?: number } | undefined, v: { text: string }) => v.text,
  audience: 'operator',
} as const;

export const ERRORS = {
  // Any route
  VALIDATION_FAILED: {
    status: 400,
    message: (d?: { messageKey: ValidationKey }, v?: { text?: string }) =>
      d ? VALIDATION_MESSAGES[d.messageKey] : (v?.text ?? 'Requisição inválida.'),
    params: ['messageKey'],
  },
  INTERNAL: { status: 500, message: 'Algo deu errado. Tente novamente em instantes.' },
  NOT_FOUND: {
    status: 404,
    // No route answers the method and path; or a card payment's route this server does not offer.
    message: (_: undefined, v: { route: string } | { what: keyof typeof NOT_FOUND_TEXTS }) =>
      'route' in v ? `Rota não encontrada: ${v.route}` : NOT_FOUND_TEXTS[v.what],
  },
  UNAUTHORIZED: {
    status: 401,
    message: (_?: undefined, v?: { why: keyof typeof UNAUTHORIZED_TEXTS }) => UNAUTHORIZED_TEXTS[v?.why ?? 'expired'],
  },
  FORBIDDEN: { status: 403, message: 'Acesso restrito a administradores.' },
  RATE_LIMITED: {
    status: 429,
    message: (d: { retryAfterSeconds: number }, v: { subject: RateLimitSubject }) =>
      `${RATE_LIMIT_SUBJECTS[v.subject]} Aguarde ${minutesText(d.retryAfterSeconds)} e tente novamente.`,
    params: ['retryAfterSeconds'],
  },
  TEXT_INVALID_CHARACTERS: {
    status: 400,
    message:
      'O texto enviado contém caracteres não permitidos (caracteres de controle, como o caractere nulo). Remova-os e tente de novo.',
    params: ['field', 'character'],
  },
  PERIOD_INVALID: {
    status: 400,
    message: (_?: undefined, v?: { reversed: true }) =>
      v?.reversed
        ? 'O início do período deve ser antes do fim.'
        : 'Período inválido: confira as datas de início e fim.',
  },
  PERIOD_TOO_LONG: {
    status: 400,
    message: (d: { maxDays: number }) => `O período pode ter no máximo ${d.maxDays} dias.`,
    params: ['maxDays'],
  },
  NOT_READY: { status: 503, message: 'Servidor iniciando.' },

  // Sign-in, sign-up, users, account
  EMAIL_NOT_FOUND: { status: 404, message: 'E-mail não cadastrado.' },
  USER_DEACTIVATED: { status: 403, message: 'Usuario desativado.' },
  MAIL_FAILED: { status: 503, message: 'Não foi possível enviar o e-mail com o código. Tente novamente em instantes.' },
  INVALID_CODE: { status: 400, message: 'Código inválido.', params: ['attemptsLeft'] },
  CODE_EXPIRED: { status: 400, message: 'Código expirado ou já utilizado. Solicite um novo código.' },
  CODE_ATTEMPTS_EXCEEDED: {
    status: 400,
    message: 'Código bloqueado após 5 tentativas erradas. Solicite um novo código.',
    params: ['attemptsLeft'],
  },
  SESSION_NOT_FOUND: { status: 404, message: 'Sessão não encontrada ou já encerrada.' },
  USER_NOT_FOUND: { status: 404, message: 'Usuário não encontrado.' },

  // API keys (issue 23)
  API_KEY_NOT_FOUND: { status: 404, message: 'Chave de API não encontrada ou já revogada.' },
  /** A key on a route only a signed-in session may use (keys, account, administration, the web's own). */
  API_KEY_NOT_ALLOWED: {
    status: 403,
    message: 'Esta rota não aceita chave de API: entre com sua conta para usá-la.',
  },
  API_KEY_SCOPE_MISSING: {
    status: 403,
    message: (d: { scope: string }) => `A chave de API não tem a permissão "${d.scope}".`,
    params: ['scope'],
  },
  API_KEY_RATE_LIMITED: {
    status: 429,
    message: (d: { retryAfterSeconds: number }) =>
      `Limite de requisições da chave de API atingido. Tente novamente em ${d.retryAfterSeconds} s.`,
    params: ['retryAfterSeconds'],
  },
  EMAIL_ALREADY_REGISTERED: {
    status: 409,
    message: 'Este e-mail já está cadastrado. Entre com ele ou use outro e-mail.',
  },
  PRICE_TABLE_NOT_ALLOWED: {
    status: 400,
    message: 'A tabela de preços é definida pela equipe Ecoa: envie todos os valores como 0.',
  },
  ADMIN_BOOTSTRAP_FAILED: { status: 500, message: 'Could not create the ADMIN_EMAIL account.' },
  CANNOT_DEACTIVATE_SELF: { status: 409, message: 'Você não pode desativar a sua própria conta.' },
  CANNOT_DEMOTE_SELF: { status: 409, message: 'Você não pode remover o seu próprio acesso de administrador.' },
  IMAGE_REQUIRED: { status: 400, message: 'Envie uma imagem no campo "file".' },
  IMAGE_TOO_LARGE: { status: 413, message: 'A imagem deve ter no máximo 2 MB.', params: ['maxBytes'] },
  IMAGE_TYPE_NOT_ALLOWED: {
    status: 415,
    message: 'Formato de imagem não aceito. Envie PNG, JPEG ou WebP.',
    params: ['detected'],
  },
  IMAGE_INVALID: { status: 400, message: 'Não foi possível ler a imagem. O arquivo pode estar corrompido.' },
  IMAGE_DIMENSIONS_TOO_LARGE: {
    status: 400,
    message: 'A imagem tem dimensões grandes demais (máximo de 50 megapixels).',
  },
  AVATAR_NOT_FOUND: { status: 404, message: 'Imagem não encontrada.' },

  // Money
  INVALID_QUANTITY: { status: 400, message: LEDGER_MESSAGES.invalidQuantity },
  WHATSAPP_MINIMUM: { status: 400, message: LEDGER_MESSAGES.whatsappMinimum },
  PRICE_NOT_CONFIGURED: { status: 400, message: LEDGER_MESSAGES.priceNotConfigured, params: ['type'] },
  INSUFFICIENT_BALANCE: {
    status: 400,
    // Money is a balance; credits are counted, and a campaign's start says how many are missing.
    message: (d: { type: CreditType; available: number; requested: number; shortfall?: number }) =>
      d.shortfall !== undefined
        ? `Créditos insuficientes: faltam ${d.shortfall}.`
        : d.type === 'BALANCE'
          ? LEDGER_MESSAGES.insufficientBalance
          : 'Créditos insuficientes.',
    params: ['type', 'available', 'requested', 'shortfall'],
  },
  ADJUSTMENT_BELOW_ZERO: { status: 400, message: LEDGER_MESSAGES.adjustmentBelowZero, params: ['type', 'available'] },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: LEDGER_MESSAGES.idempotencyKeyReused },
  RESERVATION_EXCEEDED: {
    status: 409,
    message: 'Valor acima do que está reservado para esta referência.',
    params: ['outstanding'],
  },
  PAYMENT_NOT_FOUND: { status: 404, message: 'Pagamento não encontrado.' },
  INVALID_AMOUNT: { status: 400, message: 'O valor deve ser um número inteiro maior que zero.' },
  INVALID_RETURN_URL: { status: 400, message: LEDGER_MESSAGES.returnUrl },
  CHECKOUT_FAILED: { status: 502, message: 'Não foi possível iniciar o pagamento com cartão. Tente novamente.' },
  CARD_PAYMENTS_NOT_CONFIGURED: { status: 503, message: 'Pagamento com cartão não está configurado neste servidor.' },
  INVALID_SIGNATURE: {
    status: 400,
    message: (_?: undefined, v?: { missing: true }) => (v?.missing ? 'Assinatura ausente.' : 'Assinatura inválida.'),
  },

  // Uploads and spreadsheets
  FILE_TOO_LARGE: { status: 413, message: 'O arquivo passa do limite de 100 MB.' },
  FILE_REQUIRED: { status: 400, message: 'Envie um arquivo CSV ou XLSX no campo "file".' },
  EMPTY_FILE: { status: 400, message: 'O arquivo está vazio.' },
  UNSUPPORTED_FILE_TYPE: { status: 400, message: 'Formato não suportado: envie uma planilha CSV ou XLSX.' },
  LEGACY_XLS: {
    status: 400,
    message: 'Planilhas .xls (Excel 97-2003) não são aceitas: salve como .xlsx ou .csv e envie de novo.',
  },
  XLSX_BROKEN: {
    status: 400,
    message: 'A planilha XLSX está corrompida ou incompleta. Abra e salve de novo no Excel, ou exporte como CSV.',
  },
  XLSX_TOO_LARGE: {
    status: 400,
    message: (d: { limit: FileLimit; max: number }) =>
      `A planilha XLSX ${FILE_LIMIT_PT[d.limit](d.max)}: é mais do que conseguimos ler com segurança. Salve como CSV e envie de novo.`,
    params: ['limit', 'max'],
  },
  IMPORT_TOO_LARGE: {
    status: 400,
    message: (d: { limit: FileLimit; max: number }) =>
      `A importação deste arquivo ${FILE_LIMIT_PT[d.limit](d.max).replace('ser lida', 'terminar')}. Divida a lista em arquivos menores e envie de novo.`,
    params: ['limit', 'max'],
  },
  CSV_MALFORMED: {
    status: 400,
    message: 'O CSV está malformado (aspas sem fechamento ou linha gigante). Verifique o arquivo e envie de novo.',
    params: ['row'],
  },
  CSV_RAGGED: {
    status: 400,
    message:
      'Muitas linhas do CSV têm número de colunas diferente do cabeçalho: o separador ou as aspas do arquivo parecem errados.',
  },
  NO_DATA_ROWS: { status: 400, message: 'A planilha não tem linhas com dados.' },
  NO_PHONE_COLUMN: {
    status: 400,
    message: 'Não encontramos uma coluna de telefone. Escolha a coluna de telefone no mapeamento.',
  },
  INVALID_MAPPING: { status: 400, message: 'O mapeamento de colunas não corresponde às colunas da planilha.' },
  /** Stored on a list whose import failed for a reason of ours (never an HTTP answer). */
  IMPORT_FAILED: { status: 500, message: 'A importação falhou por um erro interno. Tente enviar o arquivo de novo.' },
  /** Stored on a list whose import stopped its process twice (never an HTTP answer). */
  IMPORT_CRASHED: {
    status: 500,
    message:
      'A importação deste arquivo parou o processamento duas vezes e foi interrompida. Exporte a planilha como CSV e envie de novo.',
  },

  // Lists and opt-outs
  LIST_NOT_FOUND: { status: 404, message: 'Lista não encontrada.' },
  LIST_NOT_READY: { status: 409, message: 'A lista ainda não está pronta.' },
  LIST_NAME_REQUIRED: { status: 400, message: 'Dê um nome à lista.' },
  LIST_NAME_TOO_LONG: { status: 400, message: 'O nome da lista pode ter até 120 caracteres.' },
  OPT_OUT_NOT_FOUND: { status: 404, message: 'Este número não está na lista de descadastro.' },

  // Audios
  AUDIO_REQUIRED: { status: 400, message: 'Envie um arquivo de áudio (MP3, WAV ou OGG) no campo "file".' },
  AUDIO_TOO_LARGE: { status: 413, message: 'O áudio passa do limite de 10 MB.', params: ['maxBytes'] },
  AUDIO_TYPE_NOT_ALLOWED: {
    status: 415,
    message: 'Formato não aceito: envie um áudio MP3, WAV (PCM) ou OGG (Vorbis ou Opus).',
  },
  AUDIO_INVALID: {
    status: 400,
    message: 'O arquivo de áudio está corrompido, incompleto ou não tem som. Exporte-o de novo e tente outra vez.',
  },
  AUDIO_TOO_LONG: { status: 400, message: 'O áudio pode ter no máximo 3 minutos.', params: ['durationSeconds'] },
  AUDIO_NAME_REQUIRED: { status: 400, message: 'Dê um nome ao áudio.' },
  AUDIO_NAME_TOO_LONG: { status: 400, message: 'O nome do áudio pode ter até 120 caracteres.', params: ['max'] },
  AUDIO_NOT_FOUND: { status: 404, message: 'Áudio não encontrado.' },
  AUDIO_IN_USE: {
    status: 409,
    message: 'Este áudio está em uma campanha agendada ou em andamento e não pode ser excluído agora.',
  },
  AUDIO_RANGE_NOT_SATISFIABLE: { status: 416, message: 'O trecho pedido está fora do arquivo.' },
  AUDIO_LINK_INVALID: { status: 401, message: 'Link de áudio inválido.' },
  AUDIO_LINK_EXPIRED: { status: 401, message: 'Link de áudio expirado.' },

  // Channels (a test send)
  VOICE_PROMPT_AMBIGUOUS: { status: 400, message: CAMPAIGN_PROBLEMS.VOICE_PROMPT_AMBIGUOUS },
  VOICE_PROMPT_REQUIRED: { status: 400, message: CAMPAIGN_PROBLEMS.VOICE_PROMPT_REQUIRED },
  TEXT_REQUIRED: { status: 400, message: CAMPAIGN_PROBLEMS.TEXT_REQUIRED },
  TEMPLATE_REQUIRED: { status: 400, message: CAMPAIGN_PROBLEMS.TEMPLATE_REQUIRED },
  RCS_CONTENT_REQUIRED: { status: 400, message: CAMPAIGN_PROBLEMS.RCS_CONTENT_REQUIRED },
  INVALID_PHONE: { status: 400, message: 'Número de telefone inválido.' },
  MOBILE_REQUIRED: { status: 400, message: 'Este canal só envia para celulares.' },
  RECIPIENT_OPTED_OUT: {
    status: 409,
    message: 'Este número pediu para não receber mensagens (está no seu descadastro).',
  },
  MESSAGE_NOT_FOUND: { status: 404, message: 'Mensagem não encontrada.' },
  REPLY_NOT_FOUND: { status: 404, message: 'Resposta não encontrada.' },
  /** WhatsApp allows a free-form answer only within 24 hours of the person's message. */
  REPLY_WINDOW_CLOSED: {
    status: 409,
    message: 'A janela de 24 horas do WhatsApp para responder a esta mensagem já fechou.',
  },
  /** Only SMS and WhatsApp replies are answered from the inbox. */
  REPLY_NOT_ANSWERABLE: { status: 409, message: 'Esta resposta não pode ser respondida pela caixa de respostas.' },

  // The sending API (issue 23)
  DUPLICATE_RECIPIENT: { status: 400, message: 'Este número já está neste lote.' },
  MESSAGE_NOT_CANCELABLE: {
    status: 409,
    message: 'Esta mensagem já foi entregue à operadora (ou já terminou) e não pode ser cancelada.',
  },
  INVALID_CURSOR: { status: 400, message: 'Cursor de paginação inválido.' },
  /** An URA's integration URL failed: the job retries (never an HTTP answer). */
  INTEGRATION_UNAVAILABLE: {
    status: 502,
    message: (_: undefined, v: { status: number }) => `integration answered ${v.status}`,
  },

  // Campaigns
  CAMPAIGN_NOT_FOUND: { status: 404, message: 'Campanha não encontrada.' },
  CAMPAIGN_NOT_DRAFT: {
    status: 409,
    message: 'Só um rascunho pode ser editado. Duplique a campanha para mudar algo.',
  },
  CAMPAIGN_NOT_RUNNING: { status: 409, message: 'Só uma campanha em andamento ou agendada pode ser pausada.' },
  CAMPAIGN_FINISHED: { status: 409, message: 'Esta campanha já terminou.' },
  CAMPAIGN_ALREADY_STARTED: { status: 409, message: 'Esta campanha já foi iniciada.' },
  CAMPAIGN_NOT_PAUSED: { status: 409, message: 'Só uma campanha pausada pode ser retomada.' },
  SCHEDULE_IN_PAST: {
    status: 400,
    message: 'A data de agendamento já passou. Escolha uma data e hora futuras.',
    params: ['graceSeconds'],
  },
  SCHEDULE_REQUIRED: { status: 400, message: 'Escolha a data e a hora do agendamento.' },
  /**
   * A family: a start refused for a problem of the campaign answers with that problem's own code
   * (`CAMPAIGN_PROBLEMS`; `vars.problem`) and message, with every problem in `details.problems`.
   */
  CAMPAIGN_PROBLEM: {
    status: 400,
    message: (_: { problems: { code: string; message: string }[] } | undefined, v: { problem: CampaignProblemCode }) =>
      CAMPAIGN_PROBLEMS[v.problem],
    params: ['problems'],
  },

  // Rotating links
  LINK_NOT_FOUND: { status: 404, message: 'Link não encontrado.' },
  LINK_SLUG_TAKEN: { status: 409, message: 'Este endereço já está em uso. Escolha outro.' },
  LINK_MESSAGE_PLACEHOLDER: {
    status: 400,
    message: (d: { placeholder: string; target: number | 'fallback' }) =>
      `Variável desconhecida na mensagem: {${d.placeholder}}.`,
    params: ['placeholder', 'target'],
  },
  LINK_URL_INVALID: { status: 400, message: 'Use um endereço que comece com https://.', params: ['target'] },
  LINK_PHONE_INVALID: { status: 400, message: 'Número de WhatsApp inválido.', params: ['target'] },
  LINK_TARGET_UNKNOWN: { status: 400, message: 'Este destino não pertence ao link.', params: ['target'] },
  LINK_DISABLE_REASON: { status: 400, message: 'Diga por que o link está sendo desativado.' },

  // Webhooks to the customer (issue 23)
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: 'Webhook não encontrado.' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: 'Entrega de webhook não encontrada.' },
  WEBHOOK_URL_INVALID: { status: 400, message: 'Use um endereço https:// válido.' },
  WEBHOOK_URL_PRIVATE: {
    status: 400,
    message: 'Este endereço é privado ou local; use um endereço público da internet.',
  },
  WEBHOOK_ENDPOINT_LIMIT: { status: 409, message: 'Limite de 20 webhooks por conta atingido.' },

  // Enrichment and the CNPJ base
  ENRICHMENT_FORBIDDEN: {
    status: 403,
    message: 'Seu usuário não tem acesso ao enriquecimento. Fale com o suporte.',
  },
  ENRICHMENT_NOT_FOUND: { status: 404, message: 'Enriquecimento não encontrado.' },
  ENRICHMENT_NOT_READY: { status: 400, message: 'O enriquecimento ainda não terminou.' },
  ENRICHMENT_NO_PHONES: { status: 400, message: 'Nenhum telefone desse tipo foi encontrado para criar a lista.' },
  ENRICHMENT_TOO_LARGE: {
    status: 400,
    message: `Um enriquecimento aceita até ${MAX_ENRICHMENT_CNPJS.toLocaleString('pt-BR')} CNPJs. Divida a planilha.`,
  },
  NO_VALID_CNPJ: { status: 400, message: 'Nenhum CNPJ válido para enriquecer.', params: ['invalid', 'duplicates'] },
  NO_CNPJ_COLUMN: { status: 400, message: 'Não encontramos uma coluna de CNPJs na planilha.' },
  CNPJ_BASE_EMPTY: { status: 400, message: 'A base de CNPJs ainda não foi carregada. Fale com o suporte.' },
  CNPJ_IMPORT_RUNNING: { status: 409, message: 'Uma importação da base CNPJ já está na fila ou em andamento.' },
  CNPJ_IMPORT_ABORTED: { status: 500, message: 'Importação interrompida.' },
  CNPJ_MONTH_INVALID: {
    status: 400,
    message: (_: undefined, v: { month: string }) => `Mês de referência inválido: ${v.month} (use AAAA-MM).`,
  },
  CNPJ_FOLDER_INVALID: {
    status: 400,
    message: (_: undefined, v: { folder: string; why: string }) =>
      `A pasta ${v.folder} não serve para importar a base CNPJ: ${v.why}.`,
  },
  CNPJ_FILE_INVALID: {
    status: 400,
    message: (d: { file: string }, v: { why: string }) => `O arquivo ${d.file} não pôde ser lido: ${v.why}.`,
    params: ['file'],
  },

  // The carriers' webhooks (http-kit/webhook-kit.ts, WhatsApp, RBM; voice/voice.webhooks.ts)
  WEBHOOK_NOT_READY: carrier(503, 'nobody is listening for these events yet'),
  WEBHOOK_NOT_STORED: carrier(503, 'the events could not be stored; deliver them again'),
  WEBHOOK_VERIFY_TOKEN_INVALID: carrier(403, 'the verify token does not match'),
  WEBHOOK_CHALLENGE_INVALID: carrier(400, 'no usable hub.challenge'),
  WEBHOOK_CLIENT_TOKEN_INVALID: carrier(403, 'the client token does not match'),
  WEBHOOK_BODY_TOO_LARGE: carrier(413, 'the body is too large'),
  WEBHOOK_SIGNATURE_INVALID: carrierVariants(401, {
    whatsapp: 'X-Hub-Signature-256 is missing or does not match the body',
    rcs: 'X-Goog-Signature is missing or does not match the data',
  }),
  WEBHOOK_BODY_INVALID: carrierVariants(400, {
    notObject: 'the body is not a JSON object',
    noData: 'no message.data in the envelope',
    dataNotObject: 'message.data is not a JSON object',
    noSecret: 'no usable secret to echo',
  }),
  VOICE_CALLBACK_TOO_LARGE: carrier(413, 'body too large'),
  VOICE_SIGNATURE_INVALID: carrier(401, 'missing or wrong X-Twilio-Signature'),
  VOICE_CALLBACK_INVALID: carrierVariants(400, {
    digits: 'CallSid or Digits is not valid',
    status: 'CallSid or CallStatus is not valid',
  }),
  VOICE_SCRIPT_INVALID: carrierVariants(400, {
    call: 'the call script is not readable',
    menu: 'the menu script is not readable',
  }),
  VOICE_EVENT_NOT_RECORDED: carrier(500, 'the event could not be recorded; try again'),

  // Operations (the CLIs and the start)
  PGLITE_IN_USE: operator,
  NO_PGLITE_DATABASE: operator,
  BACKUP_EXISTS: operator,
  BACKUP_INVALID: operator,
  BACKUP_NOT_FOUND: operator,
  BACKUP_POSTGRES: operator,
  BACKUP_TOO_NEW: operator,
  RESTORE_MISMATCH: operator,
  RESTORE_NOT_EMPTY: operator,
  RESTORE_POSTGRES: operator,
  DB_MOVE_ALREADY_POSTGRES: operator,
  DB_MOVE_BAD_URL: operator,
  DB_MOVE_MISMATCH: operator,
  DB_MOVE_PGBOSS_VERSION: operator,
  DB_MOVE_TARGET_NOT_EMPTY: operator,
  DB_MOVE_UNREACHABLE: operator,
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** What `new AppError(code, …)` takes after the code: the entry's own inputs, else optional details. */
export type ErrorArgs<C extends ErrorCode> = (typeof ERRORS)[C]['message'] extends (...args: infer A) => string
  ? A
  : [details?: object];
