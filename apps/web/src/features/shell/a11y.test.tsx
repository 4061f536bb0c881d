import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { renderWithApp } from '../../../test/render.test-support';
import { signedInUser } from '../../../test/session.test-support';
import { canSee, NAV_ITEMS, type ShellUser } from './navigation';
import { Sidebar } from './Sidebar';
import { WelcomeModal } from './WelcomeModal';

afterEach(cleanup);

const admin: ShellUser = signedInUser({ name: 'Ana', email: 'ana@example.com', accessLevel: 'ADMINISTRATOR' });
const label = (key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], pt);

describe('accessibility', () => {
  it("the collapsed sidebar's entries and Logout keep their names", async () => {
    await renderWithApp(<Sidebar user={admin} collapsed onNavigate={() => {}} onLogout={() => {}} />);
    const nav = screen.getByRole('navigation', { name: pt.shell.navigation });
    const items = NAV_ITEMS.filter((item) => canSee(item, admin));
    for (const item of items)
      expect(within(nav).getByRole('link', { name: label(item.labelKey) as string })).toBeTruthy();
    expect(screen.getByRole('button', { name: pt.shell.logout })).toBeTruthy();
  });

  it('the welcome modal takes the focus when it opens', async () => {
    await renderWithApp(<WelcomeModal opened onClose={() => {}} />);
    const action = await screen.findByRole('button', { name: pt.welcome.action });
    expect(document.activeElement).toBe(action);
  });
});
