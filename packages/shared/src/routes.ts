/** The web app's routes (spec section 2). */
export const ROUTES = {
  dashboard: '/',
  lists: '/listas',
  campaigns: '/campanhas',
  createCampaign: '/campanhas/criar-campanha',
  audios: '/audios',
  rotatingLink: '/link-rotativo',
  enrichment: '/listas-enriquecidas',
  shopping: '/shopping',
  campaignsPerUser: '/campanhas-por-usuario',
  enrichmentPerUser: '/listas-enriquecidas-por-usuario',
  users: '/usuarios',
  settings: '/configuracoes',
  links: '/links',
  replies: '/respostas',
} as const;
export type RoutePath = (typeof ROUTES)[keyof typeof ROUTES];
