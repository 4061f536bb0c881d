/**
 * The replies that mean "stop sending me messages" (issue 10): SAIR, PARE, STOP, CANCELAR,
 * DESCADASTRAR, in any case, with or without accents, and with the punctuation and spaces people
 * add ("Pare!", " sair. ", "DESCADASTRAR 👍"). A sentence that merely contains one ("não vou
 * sair") is not an opt-out: the whole reply must be the word.
 */
const OPT_OUT_WORDS = new Set(['SAIR', 'PARE', 'STOP', 'CANCELAR', 'DESCADASTRAR']);

export function isOptOutReply(text: string): boolean {
  const word = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .toUpperCase();
  return OPT_OUT_WORDS.has(word);
}
