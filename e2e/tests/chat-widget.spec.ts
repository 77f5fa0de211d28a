import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from './fixtures';

// The chat widget as people expect it (issue 19 point 5): keyboard, focus, links, the assistant's scope.

const chatButton = (page: Page) => page.getByRole('button', { name: /^Chat Support/ });
const panel = (page: Page) => page.getByRole('dialog');
const messageInput = (page: Page) => panel(page).getByPlaceholder('Type your message...');
const focusIsInPanel = (page: Page) => page.evaluate(() => Boolean(document.querySelector('[role="dialog"]')?.contains(document.activeElement)));

async function send(page: Page, text: string) {
  await expect(messageInput(page)).toBeEnabled();
  await messageInput(page).fill(text);
  await messageInput(page).press('Enter');
}

async function seriousFindings(page: Page) {
  const results = await new AxeBuilder({ page }).include('.shop-chat-panel').include('.shop-chat-button').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('keyboard: open with Enter, focus in the panel, Esc closes and returns focus; a link in a message; off-topic gets the scope sentence; axe in both themes', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    localStorage.setItem('cookieConsent', 'true');
    if (!sessionStorage.getItem('mode-set')) {
      localStorage.setItem('mode', '"light"');
      sessionStorage.setItem('mode-set', '1');
    }
  });
  const page = await context.newPage();
  await page.goto('/');

  // Open with the keyboard: the panel takes focus.
  await chatButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Welcome to Chat' })).toBeVisible();
  await expect.poll(() => focusIsInPanel(page)).toBe(true);

  // Esc closes it and gives focus back to the chat button.
  await page.keyboard.press('Escape');
  await expect(panel(page)).toHaveCount(0);
  await expect(chatButton(page)).toBeFocused();

  // Reopen with the keyboard and start a guest chat without the mouse.
  await page.keyboard.press('Enter');
  await expect.poll(() => focusIsInPanel(page)).toBe(true);
  await panel(page).getByLabel('Your Name').fill('Kim Keys');
  await panel(page).getByLabel('Your Email').fill(uniqueEmail('keys'));
  await panel(page).getByLabel('Your Email').press('Enter');
  await expect(page.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
  await expect(panel(page).getByText(/^Hello Kim Keys! .*How can I help you today\?$/)).toBeVisible();
  await expect(panel(page).getByTestId('chat-responder')).toHaveText(/Our assistant is answering…/);

  // A link in a message is a real link, opening a new tab without the opener; other text is inert.
  const answers = panel(page).getByTestId('chat-message').filter({ hasText: 'AI Assistant' });
  const answersBefore = await answers.count();
  await send(page, 'Gift ideas like https://example.com/ideas?for=mum (or javascript:alert(1)).');
  await expect(answers).toHaveCount(answersBefore + 1); // the assistant answered it (whatever it said)
  const link = panel(page).getByRole('link', { name: 'https://example.com/ideas?for=mum' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'https://example.com/ideas?for=mum');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(panel(page).getByRole('link')).toHaveCount(1);

  // An off-topic question gets the plain scope sentence, not a product.
  const scope = answers.filter({ hasText: 'I can help with our products, your orders, shipping, returns and payment.' });
  const scopeBefore = await scope.count();
  await send(page, 'What is the capital of France?');
  await expect(scope).toHaveCount(scopeBefore + 1);
  await expect(answers.last()).toContainText('I can help with our products, your orders, shipping, returns and payment.');
  await expect(answers.last()).not.toContainText('$');

  // No serious or critical accessibility finding, in the light and the dark theme.
  expect(await seriousFindings(page)).toEqual([]);
  await page.getByRole('switch', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await expect(panel(page)).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);

  // Esc from the message field closes too, and focus goes back to the button.
  await messageInput(page).focus();
  await page.keyboard.press('Escape');
  await expect(panel(page)).toHaveCount(0);
  await expect(chatButton(page)).toBeFocused();
  await context.close();
});
