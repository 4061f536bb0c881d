/**
 * The spec's validation messages (section 5), exactly. Apart from the schemas (schemas/auth.ts)
 * so the web's sign-in screen can translate them without downloading zod.
 */
export const MESSAGES = {
  loginEmail: 'E-mail é obrigatório.',
  signupEmailRequired: '* E-mail é obrigatório',
  signupEmailInvalid: 'E-mail inválido',
  company: '* Empresa é obrigatório',
  fullName: '* Nome completo é obrigatório',
  terms: '* Você precisa aceitar os termos de uso',
  cnpjRequired: '* CNPJ é obrigatório',
  cnpjLength: '* CNPJ deve conter 14 dígitos',
  cnpjInvalid: '* CNPJ inválido',
  mobilePhone: '* Número do Celular é obrigatório',
  code: 'O código deve conter 6 caracteres.',
} as const;
