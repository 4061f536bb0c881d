import { expect, type Page, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap } from './screens.test-support';

test.beforeEach(async ({ page, context }) => {
  await useOwnNetwork(context);
  // The PIX hand-off and any chat link go to wa.me: answer locally, the machine has no internet.
  await context.route('https://wa.me/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>chat</p>' }),
  );
  await signInWithApi(page);
});

async function openBuyModal(page: Page, amount: string) {
  await page.goto('/shopping');
  await page.getByTestId('shopping-buy').click();
  await expect(page.getByTestId('buy-credits-modal')).toBeVisible();
  await page.getByTestId('purchase-quantity').fill(amount);
}

test('buys balance with the built-in test checkout: partner dialog, test page, success modal, balance', async ({
  page,
  context,
}) => {
  // Two tabs, the test checkout and the payment's confirmation polled: ~53 s on a loaded machine.
  test.setTimeout(90_000);
  await page.goto('/shopping');
  await expect(page.getByTestId('balance-card-empty')).toBeVisible();
  // The welcome bonus is there from sign-up.
  await expect(page.getByTestId('credit-available-SMSSHORT')).toHaveText('15');
  await expect(page.getByTestId('credit-available-URA')).toHaveText('15');

  await page.getByTestId('shopping-buy').click();
  await expect(page.getByTestId('pay-card')).toBeDisabled();
  await page.getByTestId('purchase-plus').click();
  await expect(page.getByTestId('purchase-minimum-notice')).toHaveText('Valor mínimo para compra: R$ 270,00');
  await page.getByTestId('purchase-plus').click();
  await page.getByTestId('purchase-plus').click();
  await expect(page.getByTestId('purchase-total')).toHaveText('R$\u00a0300,00');
  await expect(page.getByTestId('purchase-minimum-notice')).toHaveCount(0);
  await page.keyboard.press('Escape'); // does not close it
  await expect(page.getByTestId('buy-credits-modal')).toBeVisible();
  await snap(page, 'credits-buy-modal-pt-light');

  await page.getByTestId('pay-card').click();
  await expect(page.getByTestId('partner-dialog')).toBeVisible();
  const checkoutTab = context.waitForEvent('page');
  await page.getByTestId('partner-continue').click();
  const checkout = await checkoutTab;
  await expect(page).toHaveURL(/\/campanhas$/);

  await checkout.waitForLoadState();
  await expect(checkout.getByText('PAGAMENTO DE TESTE')).toBeVisible();
  await expect(checkout.getByTestId('amount')).toHaveText('R$\u00a0300,00');
  await snap(checkout, 'credits-test-checkout');
  await checkout.getByRole('button', { name: 'Pagar' }).click();
  await expect(checkout).toHaveURL(/\/\?success=true&payment=[0-9a-f-]{36}$/);
  await expect(checkout.getByTestId('payment-success')).toBeVisible();
  await expect(checkout.getByText('Seus créditos foram adicionados com sucesso!')).toBeVisible();
  await snap(checkout, 'credits-payment-success');
  await checkout.getByTestId('payment-success-back').click();
  await expect(checkout.getByTestId('payment-success')).toHaveCount(0);
  await expect(checkout).toHaveURL(/\/$/);

  await checkout.goto('/shopping');
  await expect(checkout.getByTestId('balance-card-amount')).toHaveText('R$\u00a0300');
  await expect(checkout.getByTestId('payment-status').first()).toHaveText('Aprovado');
});

test('a canceled checkout shows the cancel modal; "Tentar novamente" reopens the buy modal', async ({
  page,
  context,
}) => {
  await openBuyModal(page, '270');
  await page.getByTestId('pay-card').click();
  const checkoutTab = context.waitForEvent('page');
  await page.getByTestId('partner-continue').click();
  const checkout = await checkoutTab;
  await checkout.waitForLoadState();
  await checkout.getByRole('button', { name: 'Cancelar' }).click();
  await expect(checkout).toHaveURL(/\/\?cancel=true$/);
  await expect(checkout.getByText('Não foi possível processar o pagamento.')).toBeVisible();
  await snap(checkout, 'credits-payment-cancel');
  await checkout.getByTestId('payment-cancel-retry').click();
  await expect(checkout.getByTestId('buy-credits-modal')).toBeVisible();
  await expect(checkout).toHaveURL(/\/$/);
});

test('PIX: a short spinner, then the chat with the amount and the e-mail', async ({ page, context }) => {
  await openBuyModal(page, '500');
  const chat = context.waitForEvent('page');
  await page.getByTestId('pay-pix').click();
  const tab = await chat;
  const url = decodeURIComponent(tab.url());
  expect(url).toMatch(/^https:\/\/wa\.me\/5521987654321\?text=/);
  expect(url).toContain('R$\u00a0500,00');
  expect(url).toMatch(/E-mail da conta: e2e-/);
});

test('transfer: a type without a configured price says so under its row', async ({ page }) => {
  await page.goto('/shopping');
  await page.getByTestId('transfer-quantity-SMSSHORT').fill('100');
  await expect(page.getByTestId('transfer-row-SMSSHORT')).toContainText(
    'Preço ainda não configurado. Fale com o suporte.',
  );
  await expect(page.getByTestId('transfer-submit-SMSSHORT')).toBeDisabled();
  await snap(page, 'credits-shopping-pt-light');
});
