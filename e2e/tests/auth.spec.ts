import {
  DEMO_ADMIN, DEMO_CUSTOMER, expect, readLoggedMails, readMailLink, readResetToken, screenshotWidths, signIn, signOutViaMenu,
  signUpViaApi, test, uniqueEmail,
} from './fixtures';

const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, we have sent a password reset link.';
const CHECK_EMAIL = 'Check your e-mail to finish creating your account.';

test.describe('accounts', () => {
  test('sign up: check your e-mail, the mailed link creates the account and signs in; sign out and in again', async ({ page }) => {
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
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(CHECK_EMAIL);
    await expect(page.getByText(email)).toBeVisible();
    // Not signed in yet: the account does not exist until the link is used.
    await expect(page.getByRole('link', { name: 'Sign In', exact: true }).first()).toBeVisible();
    expect(await (await page.request.get('/api/users/current')).json()).toBeNull();
    await screenshotWidths(page, 'signup-check-your-email');
    await page.setViewportSize({ width: 1280, height: 800 });

    const link = await readMailLink(email, 'confirm-signup');
    await page.goto(link);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Hello, Sam Shopper' })).toBeVisible();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/token/i);

    // The link works once.
    await signOutViaMenu(page, 'Sam Shopper');
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('This confirmation link is invalid or has expired');
    await screenshotWidths(page, 'confirm-signup-used-link');
    await page.setViewportSize({ width: 1280, height: 800 });

    await expect(page.getByRole('link', { name: 'Sign In', exact: true }).first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('isLoggedOut'))).toBe('true');
    await page.reload();
    expect(await (await page.request.get('/api/users/current')).json()).toBeNull();

    await signIn(page, email, 'password123');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Hello, Sam Shopper' })).toBeVisible();
  });

  test('sign up keeps ?redirect through the mailed link', async ({ page }) => {
    const email = uniqueEmail('redirect');
    await page.goto('/signup?redirect=/shipping');
    await page.getByLabel('Name').fill('Rita Redirect');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    const link = await readMailLink(email, 'confirm-signup');
    expect(link).toMatch(/&redirect=%2Fshipping$/);
    await page.goto(link);
    await expect(page).toHaveURL(/\/shipping$/);
    await expect(page.getByRole('button', { name: 'Hello, Rita Redirect' })).toBeVisible();
  });

  test('signing up with an e-mail that exists looks the same; the owner is told by mail instead', async ({ page }) => {
    const owner = await signUpViaApi(page, { name: 'Olga Owner' });
    await page.context().clearCookies();
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Someone Else');
    await page.getByLabel('Email').fill(owner.email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm Password').fill('password123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(CHECK_EMAIL);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect.poll(() => readLoggedMails(owner.email).map((m) => m.subject)).toContain('You already have an account');
    const notice = readLoggedMails(owner.email).find((m) => m.subject === 'You already have an account')!;
    expect(notice.text).toMatch(/\/signin$/m);
    expect(notice.text).toMatch(/\/forgot-password$/m);
    expect(notice.text).not.toContain('token=');
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

  test('profile update replaces the session user; a new password needs the current one', async ({ page }) => {
    const account = await signUpViaApi(page, { name: 'Pat Profile' });
    await page.context().clearCookies();
    await signIn(page, account.email, account.password, '/profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel('Name')).toHaveValue('Pat Profile');
    await expect(page.getByLabel('Current Password')).toHaveCount(0);

    await page.getByLabel('Password', { exact: true }).fill('newpassword1');
    await page.getByLabel('Confirm Password').fill('newpassword2');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(page.getByText('Current password is required to change your e-mail or password')).toBeVisible();

    await page.getByLabel('Name').fill('Pat Updated');
    await page.getByLabel('Confirm Password').fill('newpassword1');
    await page.getByLabel('Current Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Current password is incorrect')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await screenshotWidths(page, 'profile-current-password-incorrect');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByLabel('Current Password').fill(account.password);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('User updated successfully')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hello, Pat Updated' })).toBeVisible();
    await expect(page.getByLabel('Current Password')).toHaveCount(0);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null')?.name)).toBe('Pat Updated');
    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue('Pat Updated');

    await signOutViaMenu(page, 'Pat Updated');
    await signIn(page, account.email, account.password);
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await signIn(page, account.email, 'newpassword1');
    await expect(page.getByRole('button', { name: 'Hello, Pat Updated' })).toBeVisible();
  });

  test('changing the e-mail asks for the current password, then waits for the new address to confirm it', async ({ page }) => {
    const account = await signUpViaApi(page, { name: 'Eve Email' });
    await page.goto('/profile');
    const newEmail = uniqueEmail('moved');
    await page.getByLabel('Email').fill(newEmail);
    await expect(page.getByLabel('Current Password')).toBeVisible();
    await page.getByLabel('Current Password').fill(account.password);
    await page.getByRole('button', { name: 'Update' }).click();
    // Not changed yet: the new address confirms it (dev-mailbox.spec.ts follows the link).
    await expect(page.getByText(`Confirmation link sent to ${newEmail}. Your e-mail stays ${account.email} until you open it.`)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(account.email);
    expect(await (await page.request.get('/api/users/current')).json()).toMatchObject({ email: account.email });
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
    // Not an admin: sent to /signin?redirect=..., which says an administrator account is needed.
    await expect(page).toHaveURL(/\/signin\?redirect=\/admin\/dashboard$/);
    await expect(page.getByText(/An administrator account is needed to open that page/)).toBeVisible();
    expect((await page.request.get('/api/users/current')).status()).toBe(200);
    await page.goto('/');

    await signOutViaMenu(page, DEMO_CUSTOMER.name);
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/dashboard');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    // The storefront header's Admin menu (the back office has its own sidebar instead).
    await page.getByRole('banner').getByRole('link', { name: 'View store' }).click();
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    for (const name of ['Dashboard', 'Products', 'Orders', 'Users', 'Leads', 'Chats', 'Supplier catalogue', 'Discounts', 'Pages']) {
      await expect(page.locator('.dropdown-menu.show').getByRole('link', { name, exact: true })).toBeVisible();
    }
  });
});
