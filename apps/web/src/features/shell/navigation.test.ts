import { describe, expect, it } from 'vitest';
import { canOpen, canSee, displayName, isActive, NAV_ITEMS, showsCreateCampaign } from './navigation';

const user = { accessLevel: 'USER', permissions: { enriched: [] as string[] } };
const enricher = { accessLevel: 'USER', permissions: { enriched: ['all'] } };
const admin = { accessLevel: 'ADMINISTRATOR', permissions: { enriched: [] as string[] } };

describe('shell navigation rules', () => {
  it('shows a regular user only the seven common entries', () => {
    expect(NAV_ITEMS.filter((i) => canSee(i, user)).map((i) => i.path)).toEqual([
      '/',
      '/listas',
      '/campanhas',
      '/audios',
      '/link-rotativo',
      '/respostas',
      '/shopping',
    ]);
  });
  it('adds enrichment for permissions.enriched "all", and everything for admins', () => {
    expect(NAV_ITEMS.filter((i) => canSee(i, enricher)).map((i) => i.path)).toContain('/listas-enriquecidas');
    expect(NAV_ITEMS.filter((i) => canSee(i, admin))).toHaveLength(NAV_ITEMS.length);
  });
  it('guards admin routes for non-admins, with the enrichment exception', () => {
    for (const path of ['/usuarios', '/listas-enriquecidas-por-usuario', '/links', '/campanhas-por-usuario']) {
      expect(canOpen(path, user), path).toBe(false);
      expect(canOpen(path, enricher), path).toBe(false);
      expect(canOpen(path, admin), path).toBe(true);
    }
    expect(canOpen('/listas-enriquecidas', user)).toBe(false);
    expect(canOpen('/listas-enriquecidas', enricher)).toBe(true);
    expect(canOpen('/campanhas/criar-campanha', user)).toBe(true);
    expect(canOpen('/configuracoes', user)).toBe(true);
  });
  it('highlights the entry matching the current path', () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/listas')).toBe(false);
    expect(isActive('/campanhas', '/campanhas/criar-campanha')).toBe(true);
    expect(isActive('/listas', '/listas-enriquecidas')).toBe(false);
  });
  it('hides the create-campaign button on lists, audios, rotating link and enrichment', () => {
    for (const p of ['/listas', '/audios', '/link-rotativo', '/listas-enriquecidas'])
      expect(showsCreateCampaign(p)).toBe(false);
    for (const p of ['/', '/campanhas', '/shopping']) expect(showsCreateCampaign(p)).toBe(true);
  });
  it('truncates the name to 10 characters plus "..."', () => {
    expect(displayName('Maria')).toBe('Maria');
    expect(displayName('Maria Aparecida')).toBe('Maria Apar...');
    expect(displayName('0123456789')).toBe('0123456789');
  });
});
