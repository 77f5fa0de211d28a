import { expect, test, uniqueEmail } from './fixtures';

// Outside production, without SMTP_URL, the mail the shop keeps is readable at /dev/mailbox: a new
// shop owner can finish a sign-up locally.
test('sign up, open the development mailbox from the "check your e-mail" page, follow the link: the account is set and signed in', async ({ page }) => {
  const email = uniqueEmail('mailbox');
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Mia Mailbox');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm Password').fill('password123');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();

  await page.getByRole('link', { name: 'Open the development mailbox' }).click();
  await expect(page).toHaveURL(/\/dev\/mailbox$/);
  await expect(page.getByRole('heading', { name: 'Development mailbox', level: 1 })).toBeVisible();
  // Newest first: the confirmation just sent is the first message.
  const first = page.getByRole('article').first();
  await expect(first).toContainText('Confirm your e-mail to create your account');
  await expect(first).toContainText(email);
  const link = first.getByRole('link', { name: /\/confirm-signup\?token=/ });
  await expect(link).toBeVisible();
  await link.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Hello, Mia Mailbox' })).toBeVisible();
  const me = await (await page.request.get('/api/users/current')).json() as { email: string } | null;
  expect(me?.email).toBe(email);
});

test('forgot password shows the development mailbox link too', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('link', { name: 'Open the development mailbox' })).toBeVisible();
});
