/**
 * End to end, operator accounts (docs/api.md "Operators", "Roles", "Audit"): an owner invites a
 * support operator, who accepts the link, signs in, revokes a customer's access and is found in
 * the Audit trail under their own email; disabling them drops their open page to the sign-in
 * screen; an operator enrols in two-factor sign-in, signs out, and signs in again with a code.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { E2E_ADMIN } from './support';

const API = '/api/admin';

/** An owner session over the API (the e2e admin is the bootstrap owner). */
async function ownerToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${API}/auth/login`, {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Invites `email` as `role` → the invitation link's path under /admin and the operator's id. */
async function invite(
  request: APIRequestContext,
  token: string,
  email: string,
  name: string,
  role: string,
): Promise<{ path: string; id: number }> {
  const res = await request.post(`${API}/operators`, {
    headers: { authorization: `Bearer ${token}` },
    data: { email, name, role },
  });
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { operator: { id: number }; invite: { url: string } };
  return { path: new URL(body.invite.url).pathname, id: body.operator.id };
}

/** Accepts an invitation on its page, then signs in as that operator. */
async function acceptAndSignIn(page: Page, path: string, email: string, password: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your account' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText(`Your password is set. Sign in as ${email}.`)).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A customer of the seed whose access is active (the Users screen's first active row). */
async function activeCustomer(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get(`${API}/users?mg_status=active&pageSize=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const rows = ((await res.json()) as { rows: Array<{ email: string }> }).rows;
  expect(rows.length).toBeGreaterThan(0);
  return rows[0]!.email;
}

test('invite → accept → support revokes access → the Audit trail names the operator; disabling drops their page to sign-in', async ({
  page,
  request,
  browser,
}) => {
  const owner = await ownerToken(request);
  const email = `sam.support.${Date.now()}@e2e.example`;
  const { path, id } = await invite(request, owner, email, 'Sam Support', 'support');
  await acceptAndSignIn(page, path, email, 'support desk password 2026');

  // The header names the operator.
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Sam Support', { exact: true })).toBeVisible();

  // Revoke one customer's access from Users.
  const customer = await activeCustomer(request, owner);
  await page.goto(`users?email=${encodeURIComponent(customer)}`);
  await page.getByRole('button', { name: `Edit access for ${customer}` }).click();
  await page.getByRole('menuitem', { name: 'Revoke now' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke now' }).click();
  await expect
    .poll(async () => {
      const res = await request.get(`${API}/users?email=${encodeURIComponent(customer)}`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      return ((await res.json()) as { rows: Array<{ mg_status: string }> }).rows[0]?.mg_status;
    })
    .toBe('cancelled');

  // The Audit screen finds it under this operator.
  await page.getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('Operator').fill(email);
  await page.getByLabel('Operator').press('Enter');
  const trail = page.getByRole('table', { name: 'Audit trail' });
  const row = trail.getByRole('row').filter({ hasText: 'access.revoke_now' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(customer);
  await expect(row).toContainText(email);

  // An owner disables the operator: their open page drops to the sign-in screen by itself.
  const off = await request.patch(`${API}/operators/${id}`, {
    headers: { authorization: `Bearer ${owner}` },
    data: { disabled: true },
  });
  expect(off.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible({
    timeout: 20_000,
  });

  // And they cannot sign in again.
  const again = await browser.newPage();
  await again.goto('login');
  await again.getByLabel('Email').fill(email);
  await again.getByLabel('Password').fill('support desk password 2026');
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again.getByRole('alert')).toContainText('Incorrect user');
  await again.close();
});

test('enrol in two-factor sign-in, sign out, sign in with a code', async ({ page, request }) => {
  const owner = await ownerToken(request);
  const email = `tina.totp.${Date.now()}@e2e.example`;
  const password = 'viewer password for totp 7';
  const { path } = await invite(request, owner, email, 'Tina Totp', 'viewer');
  await acceptAndSignIn(page, path, email, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // Settings → My account: set up, read the secret the page shows, confirm with a code.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const keyStep = page
    .getByRole('listitem')
    .filter({ hasText: 'Or enter this key in the app by hand' });
  const secretText = (await keyStep.locator('code').textContent()) ?? '';
  const secret = secretText.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByRole('img', { name: /QR code/i })).toBeVisible();
  await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(/recovery codes/i).first()).toBeVisible();

  // Sign out, then sign in: the password alone asks for the code.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  // The enrolment used the current 30-second step, and a step is accepted once: the next one.
  await code.fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});
