import { DEMO_ADMIN, DEMO_CUSTOMER, expect, readResetToken, signIn, signOutViaMenu, signUpViaApi, test, uniqueEmail } from './fixtures';

const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, we have sent a password reset link.';

test.describe('accounts', () => {
  test('sign up, sign out, and sign in again', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Sam Shopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password124');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);

    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Hello, Sam Shopper' })).toBeVisible();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/token/i);

    await signOutViaMenu(page, 'Sam Shopper');
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('isLoggedOut'))).toBe('true');
    // The server session is gone: a reload restores nothing.
    await page.reload();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    expect((await page.request.get('/api/users/current')).status()).toBe(200);
    expect(await (await page.request.get('/api/users/current')).json()).toBeNull();

    await signIn(page, email, 'password123');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Hello, Sam Shopper' })).toBeVisible();
  });

  test('signing up with an e-mail that exists shows the server message', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Jane Again');
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText('User already exists');
  });

  test('a wrong password shows the error and stays on /signin', async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER.email, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/signin$/);
  });

  test('an anonymous visitor of /profile signs in and comes back to /profile', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/signin\?redirect=\/profile$/);
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'User Profile' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(DEMO_CUSTOMER.email);
    // Signed in, /signin sends the visitor on to its redirect.
    await page.goto('/signin?redirect=/orderhistory');
    await expect(page).toHaveURL(/\/orderhistory$/);
  });

  test('profile update replaces the session user and the new password works', async ({ page }) => {
    const account = await signUpViaApi(page, { name: 'Pat Profile' });
    await page.context().clearCookies();
    await signIn(page, account.email, account.password, '/profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel('Name')).toHaveValue('Pat Profile');

    await page.getByLabel('Password', { exact: true }).fill('newpassword1');
    await page.getByLabel('Confirm Password').fill('newpassword2');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();

    await page.getByLabel('Name').fill('Pat Updated');
    await page.getByLabel('Confirm Password').fill('newpassword1');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('User updated successfully')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hello, Pat Updated' })).toBeVisible();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null')?.name)).toBe('Pat Updated');
    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue('Pat Updated');

    await signOutViaMenu(page, 'Pat Updated');
    await signIn(page, account.email, account.password);
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await signIn(page, account.email, 'newpassword1');
    await expect(page.getByRole('button', { name: 'Hello, Pat Updated' })).toBeVisible();
  });

  test('forgot password and reset through the mailed link', async ({ page }) => {
    const account = await signUpViaApi(page, { name: 'Robin Reset' });
    await page.context().clearCookies();

    await page.goto('/signin');
    await page.getByRole('link', { name: 'Reset Password' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText(FORGOT_PASSWORD_MESSAGE)).toBeVisible();

    const token = await readResetToken(account.email);
    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New Password', { exact: true }).fill('resetpass1');
    await page.getByLabel('Confirm New Password').fill('resetpass2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();

    await page.getByLabel('Confirm New Password').fill('resetpass1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Password has been reset' }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/, { timeout: 5000 });

    await signIn(page, account.email, 'resetpass1');
    await expect(page.getByRole('button', { name: 'Hello, Robin Reset' })).toBeVisible();
    await signOutViaMenu(page, 'Robin Reset');

    // The link works once.
    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New Password', { exact: true }).fill('resetpass3');
    await page.getByLabel('Confirm New Password').fill('resetpass3');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toContainText('Password reset link is invalid or has expired');
  });

  test('the reset page without a token, and the recovery pages when signed in, go to /', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await expect(page.getByRole('button', { name: `Hello, ${DEMO_CUSTOMER.name}` })).toBeVisible();
    await page.goto('/forgot-password');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/reset-password?token=whatever');
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('guards', () => {
  test('anonymous visitors of signed-in and admin pages go to /signin with a redirect', async ({ page }) => {
    for (const path of ['/profile', '/orderhistory', '/shipping']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/signin\\?redirect=${path}$`));
    }
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/signin\?redirect=\/admin\/dashboard$/);
  });

  test('a customer cannot open admin pages; an admin can', async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await expect(page.getByRole('button', { name: `Hello, ${DEMO_CUSTOMER.name}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
    await page.goto('/admin/dashboard');
    // Not an admin: sent to /signin, which sends a signed-in visitor home.
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/users/current')).status()).toBe(200);

    await signOutViaMenu(page, DEMO_CUSTOMER.name);
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/dashboard');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    for (const name of ['Dashboard', 'Products', 'Orders', 'Users', 'Chats', 'CJ Products']) {
      await expect(page.locator('.dropdown-menu.show').getByRole('link', { name, exact: true })).toBeVisible();
    }
  });
});
