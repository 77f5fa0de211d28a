import { expect, signUpViaApi, test, uniqueEmail } from './fixtures';

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

// A change of e-mail is confirmed by the new address: the profile says so, the account keeps its
// address until the link (read here from the development mailbox) is opened.
test('change the e-mail in the profile: the old address stays until the link from the mailbox is opened', async ({ page }) => {
  const account = await signUpViaApi(page, { name: 'Eve Mover' });
  const newEmail = uniqueEmail('moved');
  await page.goto('/profile');
  await page.getByLabel('Email').fill(newEmail);
  await page.getByLabel('Current Password').fill(account.password);
  await page.getByRole('button', { name: 'Update' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Confirm your new e-mail address.' });
  await expect(notice).toContainText(`We sent a link to ${newEmail}`);
  await expect(notice).toContainText(`your account keeps ${account.email} and you sign in with it`);
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  const before = await (await page.request.get('/api/users/current')).json() as { email: string };
  expect(before.email).toBe(account.email);

  await page.goto('/dev/mailbox');
  const told = page.getByRole('article').filter({ hasText: 'Your account e-mail is being changed' }).filter({ hasText: account.email });
  await expect(told).toContainText(`change its e-mail address to ${newEmail}`);
  const confirmation = page.getByRole('article').filter({ hasText: 'Confirm your new e-mail address' }).filter({ hasText: newEmail });
  const link = confirmation.getByRole('link', { name: /\/confirm-email\?token=/ });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^http:\/\/localhost:\d+\/confirm-email\?token=[\w-]{43}$/);
  await link.click();

  await expect(page.getByText(`Your e-mail address is now ${newEmail}`)).toBeVisible();
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(newEmail);
  // The same link again: already used, said plainly.
  await page.goto(href!);
  await expect(page.getByRole('alert')).toContainText('This e-mail confirmation link was already used');
});
