import { formatBRL, reaisToCentavos } from '@ecoa/shared';

/** The API's reais number (`balance.money: 270.5`) → "R$ 270,50" (pt-BR, whatever the language). */
export const formatReais = (reais: number): string => formatBRL(reaisToCentavos(reais) ?? 0);
