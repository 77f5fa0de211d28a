import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createAccountViaApi, DEMO_ADMIN, expect, signIn, signUpViaApi, test, uniqueEmail } from './fixtures';

const chatButton = (page: Page) => page.getByRole('button', { name: /^Chat Support/ });
const panel = (page: Page) => page.getByRole('dialog');
const messageInput = (page: Page) => panel(page).getByPlaceholder('Type your message...');

async function send(page: Page, text: string) {
  await expect(messageInput(page)).toBeEnabled();
  await messageInput(page).fill(text);
  await panel(page).getByRole('button', { name: 'Send' }).click();
}

test('a guest gives a name and e-mail and chats with the AI, which answers from the catalogue', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await chatButton(page).click();
  await expect(page.getByRole('dialog', { name: 'Welcome to Chat' })).toBeVisible();
  await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
  await expect(panel(page).getByText('Please enter your name')).toBeVisible();
  await panel(page).getByLabel('Your Name').fill('Gail Guest');
  await panel(page).getByLabel('Your Email').fill('gail@example');
  await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
  await expect(panel(page).getByText('Please enter a valid email address')).toBeVisible();
  await panel(page).getByLabel('Your Email').fill(uniqueEmail('gail'));
  await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
  await expect(page.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
  await expect(panel(page).getByText(/^Hello Gail Guest! .*How can I help you today\?$/)).toBeVisible();
  await send(page, 'How much is the Nova X5 Smartphone?');
  const answer = panel(page).getByTestId('chat-message').filter({ hasText: 'AI Assistant' }).filter({ hasText: 'Nova X5 Smartphone by Nova' }).first();
  await expect(answer).toBeVisible();
  await expect(answer).toContainText(/\$\d+\.\d{2}/);
  // The product's name links to its page in the app (issue 36); the markup itself is not shown.
  await expect(answer.getByRole('link', { name: 'Nova X5 Smartphone' })).toHaveAttribute('href', '/product/nova-x5-smartphone');
  await expect(answer).not.toContainText('](/product/');
  // The same markup typed by the guest stays text.
  await send(page, 'is [this](/product/nova-x5-smartphone) a link?');
  const mine = panel(page).getByTestId('chat-message').filter({ hasText: 'is [this](/product/nova-x5-smartphone) a link?' });
  await expect(mine).toBeVisible();
  await expect(mine.getByRole('link')).toHaveCount(0);
  // The assistant's link opens the product page in the app.
  await answer.getByRole('link', { name: 'Nova X5 Smartphone' }).click();
  await expect(page).toHaveURL(/\/product\/nova-x5-smartphone$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nova X5 Smartphone' })).toBeVisible();
  // The guest session survives a reload (HTTP-only cookie) and the history comes back once.
  await page.reload();
  await chatButton(page).click();
  await expect(panel(page).getByText('How much is the Nova X5 Smartphone?')).toHaveCount(1);
  await context.close();
});

test('a customer and an administrator chat live; offline administrator → the AI answers; history pages', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin.getByText(`Hello, ${DEMO_ADMIN.name}`)).toBeVisible();

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const account = await signUpViaApi(customer, { name: `Carla ${Date.now().toString(36)}` });
  await customer.goto('/');

  await chatButton(admin).click();
  await expect(panel(admin).getByRole('button', { name: 'Online', exact: true })).toBeVisible();
  await expect(panel(admin).getByRole('button', { name: new RegExp(account.name) })).toBeVisible();

  await chatButton(customer).click();
  await expect(panel(customer).getByTestId('chat-connection')).toContainText('Connected');
  await send(customer, 'Hello, is anyone there?');
  const userRow = panel(admin).getByRole('button', { name: new RegExp(account.name) });
  await expect(userRow.getByText('New')).toBeVisible();
  await expect(userRow.getByText('online')).toBeVisible();
  // Closed panel: the button shows the count of unread users.
  await panel(admin).getByRole('button', { name: 'Close chat' }).click();
  await send(customer, 'I have a question about my order');
  await expect(admin.getByTestId('chat-badge')).toHaveText('1');
  await chatButton(admin).click();
  await panel(admin).getByRole('button', { name: new RegExp(account.name) }).click();
  await expect(panel(admin).getByText(`Chat with ${account.name}`)).toBeVisible();
  await expect(panel(admin).getByText('Hello, is anyone there?')).toBeVisible();
  await send(admin, 'Hi! How can I help?');
  const reply = panel(customer).getByTestId('chat-message').filter({ hasText: 'Hi! How can I help?' });
  await expect(reply).toContainText('Admin');
  // No AI answer while the administrator is online.
  await expect(panel(customer).getByText('AI Assistant')).toHaveCount(0);

  // Administrator goes offline → the AI answers the customer.
  await panel(admin).getByRole('button', { name: '← Back to users' }).click();
  await panel(admin).getByRole('button', { name: 'Online', exact: true }).click();
  await expect(panel(admin).getByRole('button', { name: 'Offline', exact: true })).toBeVisible();
  await send(customer, 'What is your return policy?');
  await expect(panel(customer).getByTestId('chat-message').filter({ hasText: 'AI Assistant' }).filter({ hasText: '30 days' })).toBeVisible();
  await panel(admin).getByRole('button', { name: 'Offline', exact: true }).click();
  await expect(panel(admin).getByRole('button', { name: 'Online', exact: true })).toBeVisible();

  // History pages.
  await admin.goto('/admin/chats');
  await admin.getByLabel('Search by name or e-mail').fill(account.email);
  await admin.getByRole('button', { name: 'Search chats' }).click();
  const row = admin.getByRole('row').filter({ hasText: account.name });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: /Details/ }).click();
  await expect(admin).toHaveURL(/\/admin\/chat\/[0-9a-f]{24}$/);
  await expect(admin.getByText('Hi! How can I help?')).toBeVisible();
  await expect(admin.getByText('What is your return policy?')).toBeVisible();
  await admin.getByRole('button', { name: 'Back' }).click();
  await expect(admin).toHaveURL(/\/admin\/chats$/);
  await adminContext.close();
  await customerContext.close();
});

test('signing in ends the guest chat: the widget switches to the account and the guest cookie is gone', async ({ browser, playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  const account = await createAccountViaApi(api, { name: `Gwen ${Date.now().toString(36)}` });
  await api.dispose();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await chatButton(page).click();
  await panel(page).getByLabel('Your Name').fill('Gwen As Guest');
  await panel(page).getByLabel('Your Email').fill(uniqueEmail('gwen-guest'));
  await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
  await send(page, 'a question asked as a guest');
  await expect(panel(page).getByText('a question asked as a guest')).toBeVisible();
  expect((await context.cookies()).some((c) => c.name === 'chat_guest')).toBe(true);

  await signIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: `Hello, ${account.name}` })).toBeVisible();
  expect((await context.cookies()).some((c) => c.name === 'chat_guest')).toBe(false);
  if (!(await panel(page).isVisible())) await chatButton(page).click();
  await expect(page.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
  await expect(panel(page).getByTestId('chat-connection')).toContainText('Connected');
  // The guest's conversation (and greeting) stays with the guest; the account starts its own.
  await expect(panel(page).getByText('a question asked as a guest')).toHaveCount(0);
  await expect(panel(page).getByText(/Hello Gwen As Guest/)).toHaveCount(0);
  await send(page, 'now asking as myself');
  await expect(panel(page).getByText('now asking as myself')).toBeVisible();
  await context.close();
});

// The open widget (guest form, then a conversation) in both themes, on a desktop and a 390 px phone.
for (const [mode, width] of [['light', 1280], ['dark', 1280], ['light', 390], ['dark', 390]] as const) {
  test(`the open chat widget has no serious or critical accessibility violations (${mode}, ${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
    await context.addInitScript((m) => {
      localStorage.setItem('mode', JSON.stringify(m));
      localStorage.setItem('cookieConsent', JSON.stringify(true));
    }, mode);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', mode);
    const serious = async () => {
      const results = await new AxeBuilder({ page }).include('.shop-chat-panel').include('.shop-chat-button').analyze();
      return results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    };
    await chatButton(page).click();
    await expect(page.getByRole('dialog', { name: 'Welcome to Chat' })).toBeVisible();
    // The guest form, with its validation messages showing.
    await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
    await expect(panel(page).getByText('Please enter your name')).toBeVisible();
    expect(await serious()).toEqual([]);
    await panel(page).getByLabel('Your Name').fill('Axel Axe');
    await panel(page).getByLabel('Your Email').fill(uniqueEmail('axe'));
    await panel(page).getByRole('button', { name: 'Start Chatting' }).click();
    await expect(page.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
    await send(page, 'what is your return policy?');
    await expect(panel(page).getByTestId('chat-message').filter({ hasText: 'AI Assistant' }).nth(1)).toBeVisible();
    if (width === 390) {
      // Below 576 px the panel takes the whole screen.
      const box = await panel(page).boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(389);
    }
    expect(await serious()).toEqual([]);
    await context.close();
  });
}

// Issue 36: the administrator answers from the back office's Chats page (its own socket, unread counts,
// a reply box in the conversation), on a desktop and on a phone.
for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`an administrator answers a customer from the Chats page (${viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const customerContext = await browser.newContext();
    const customer = await customerContext.newPage();
    const account = await signUpViaApi(customer, { name: `Cora ${viewport.width} ${Date.now().toString(36)}` });
    await customer.goto('/');

    const adminContext = await browser.newContext({ viewport });
    const admin = await adminContext.newPage();
    await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/chats');
    await expect(admin.getByRole('heading', { level: 1, name: 'Chats' })).toBeVisible();
    await expect(admin.getByRole('switch', { name: 'Online' })).toBeChecked();
    // No chat button in the back office: the page is where the administrator answers.
    await expect(admin.getByRole('button', { name: /^Chat Support/ })).toHaveCount(0);

    // The customer writes from the widget; the list shows the conversation with its unread message, live.
    await chatButton(customer).click();
    await expect(panel(customer).getByTestId('chat-connection')).toContainText('Connected');
    await send(customer, 'Can someone check my order, please?');
    const row = admin.getByTestId('chat-row').filter({ hasText: account.name });
    await expect(row.getByTestId('chat-unread')).toHaveText('1 new');
    if (viewport.width >= 992) {
      await expect(admin.getByRole('complementary', { name: 'Back office' }).getByRole('link', { name: /^Chats, \d+ conversations? with unread messages$/ })).toBeVisible();
    }
    await row.getByRole('link', { name: `Details of the chat with ${account.name}` }).click();
    await expect(admin).toHaveURL(/\/admin\/chat\/[0-9a-f]{24}$/);
    await expect(admin.getByRole('heading', { level: 1, name: `Chat with ${account.name}` })).toBeVisible();
    await expect(admin.getByTestId('conversation-message').filter({ hasText: 'Can someone check my order, please?' })).toBeVisible();

    // The reply goes to this customer, over the socket; the customer sees it from the administrator.
    const reply = admin.getByRole('textbox', { name: `Reply to ${account.name}` });
    await expect(reply).toBeEnabled();
    await reply.fill('Of course! It left our warehouse this morning.');
    await reply.press('Enter');
    await expect(admin.getByTestId('conversation-message').filter({ hasText: 'It left our warehouse this morning.' })).toContainText('Admin');
    await expect(reply).toHaveValue('');
    const answer = panel(customer).getByTestId('chat-message').filter({ hasText: 'It left our warehouse this morning.' });
    await expect(answer).toContainText('Admin');

    // The customer's next message appears in the open conversation without a reload.
    await send(customer, 'Great, thanks!');
    await expect(admin.getByTestId('conversation-message').filter({ hasText: 'Great, thanks!' })).toBeVisible();
    await admin.screenshot({ path: test.info().outputPath(`admin-conversation-${viewport.width}px.png`), fullPage: true });

    // Seen: back in the list, nothing of it is unread any more.
    await admin.getByRole('button', { name: 'Back' }).click();
    await expect(admin).toHaveURL(/\/admin\/chats$/);
    await expect(admin.getByTestId('chat-row').filter({ hasText: account.name })).toBeVisible();
    await expect(admin.getByTestId('chat-row').filter({ hasText: account.name }).getByTestId('chat-unread')).toHaveCount(0);
    await admin.screenshot({ path: test.info().outputPath(`admin-chats-${viewport.width}px.png`), fullPage: true });
    await adminContext.close();
    await customerContext.close();
  });
}
