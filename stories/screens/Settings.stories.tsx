import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { SettingsScreen } from '../../src/screens/SettingsScreen';
import { api, whoamiHandlers } from '../../tests/msw/handlers';
import { VALID_OTP } from '../../tests/msw/fixtures-account';
import {
  accountHandlers,
  CURRENT_PASSWORD,
  failingGet,
  loadingGet,
} from '../../tests/msw/handlers-account';
import { screenRouter, withScreen } from '../support/withScreen';

/**
 * The Settings screen (§2 Settings, issue 23) against a mocked account API that behaves like the
 * reference server: password, sessions, two-factor sign-in, operators (owners), enrolment.
 */
const meta = {
  title: 'Screens/Settings',
  component: SettingsScreen,
  decorators: [withScreen],
  parameters: { screen: { route: '/settings' }, msw: { handlers: accountHandlers() } },
} satisfies Meta<typeof SettingsScreen>;
export default meta;
type Story = StoryObj<typeof meta>;
const WAIT = { timeout: 8000 } as const;

/** A backend that names no operator: the title and the placeholder text, and no account call. */
export const Default: Story = {
  parameters: { msw: { handlers: [whoamiHandlers.signedIn()] } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(
      canvas.getByText('Environment and integration settings will go here.'),
    ).toBeVisible();
  },
};

/** An owner: sessions and the team load; an operator is disabled after the confirmation. */
export const Owner: Story = {
  // Fresh handlers: they keep state, and other stories change it.
  parameters: { msw: { handlers: accountHandlers() } },
  play: async ({ canvas }) => {
    const team = await canvas.findByRole('table', { name: 'Operators' }, WAIT);
    await expect(await canvas.findByText('Safari on iOS', {}, WAIT)).toBeVisible();
    // The table is there while the operators load; their buttons come with the answer.
    await userEvent.click(
      await within(team).findByRole('button', { name: 'Disable Sam Lee' }, WAIT),
    );
    const dialog = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable now' }));
    await expect(
      await canvas.findByText('Sam Lee is disabled. 2 sessions were ended.'),
    ).toBeVisible();
    await expect(await within(team).findByRole('button', { name: 'Enable Sam Lee' })).toBeVisible();
  },
};

/** A support operator: My account only, no operators call. */
export const NonOwner: Story = {
  parameters: { msw: { handlers: accountHandlers({ role: 'support' }) } },
  play: async ({ canvas }) => {
    await canvas.findByRole('table', { name: 'My sessions' });
    await expect(canvas.queryByRole('heading', { name: 'Operators' })).toBeNull();
  },
};

/** Sessions and operators still loading. */
export const Loading: Story = {
  parameters: {
    msw: {
      handlers: [loadingGet('/auth/sessions'), loadingGet('/operators'), ...accountHandlers()],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Loading sessions…')).toBeVisible();
    await expect(await canvas.findByText('Loading operators…')).toBeVisible();
  },
};

/** Both lists fail: their messages with Retry. */
export const Error: Story = {
  parameters: {
    msw: {
      handlers: [
        failingGet('/auth/sessions', 'Sessions are unavailable'),
        failingGet('/operators', 'Operators are unavailable'),
        ...accountHandlers(),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Sessions are unavailable')).toBeVisible();
    await expect(await canvas.findByText('Operators are unavailable')).toBeVisible();
  },
};

/** Wrong current password, then a refused new one, then a change that ends the 2 other sessions. */
export const PasswordErrors: Story = {
  // Fresh handlers: they keep state, and other stories change it.
  parameters: { msw: { handlers: accountHandlers() } },
  play: async ({ canvas }) => {
    const form = await canvas.findByRole('region', { name: 'Change password' });
    const f = within(form);
    await userEvent.type(f.getByLabelText('Current password'), 'not it');
    await userEvent.type(f.getByLabelText('New password'), 'short one');
    await userEvent.type(f.getByLabelText('Confirm new password'), 'short one');
    await userEvent.click(f.getByRole('button', { name: 'Change password' }));
    await expect(await f.findByText('Your current password is not correct.')).toBeVisible();
    await userEvent.clear(f.getByLabelText('Current password'));
    await userEvent.type(f.getByLabelText('Current password'), CURRENT_PASSWORD);
    await userEvent.click(f.getByRole('button', { name: 'Change password' }));
    await expect(
      await f.findByText('Use at least 12 characters, not counting spaces.'),
    ).toBeVisible();
    for (const label of ['New password', 'Confirm new password']) {
      await userEvent.clear(f.getByLabelText(label));
      await userEvent.type(f.getByLabelText(label), 'a long and fresh passphrase');
    }
    await userEvent.click(f.getByRole('button', { name: 'Change password' }));
    await expect(await f.findByText(/2 other sessions were ended/)).toBeVisible();
  },
};

/** Set up two-factor sign-in: QR, a wrong code, the right one, the codes, then on. */
export const TotpEnable: Story = {
  parameters: { msw: { handlers: accountHandlers({ role: 'viewer' }) } },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Set up two-factor sign-in' }));
    await canvas.findByRole('img', { name: /QR code/ });
    const code = canvas.getByLabelText('Code from your authenticator app');
    await userEvent.type(code, '000000');
    await userEvent.click(canvas.getByRole('button', { name: 'Turn on' }));
    await expect(
      await canvas.findByText('That code is not valid. Enter the current 6-digit code.'),
    ).toBeVisible();
    await userEvent.clear(code);
    await userEvent.type(code, VALID_OTP);
    await userEvent.click(canvas.getByRole('button', { name: 'Turn on' }));
    await expect(await canvas.findByText(/they are shown once/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'I have stored them' }));
    const turnOff = await canvas.findByRole('button', { name: 'Turn off two-factor sign-in' });
    await waitFor(() => expect(turnOff).toHaveFocus());
  },
};

/** Turning off while an owner requires two-factor sign-in: the policy's refusal in the dialog. */
export const TotpPolicyRefusal: Story = {
  parameters: {
    msw: { handlers: accountHandlers({ role: 'viewer', totpEnabled: true, requireTotp: true }) },
  },
  play: async ({ canvas }) => {
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Turn off two-factor sign-in' }),
    );
    const dialog = await within(document.body).findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Current password'), CURRENT_PASSWORD);
    await userEvent.type(
      within(dialog).getByLabelText('Code from your authenticator app'),
      VALID_OTP,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await expect(
      await within(dialog).findByText(
        'An owner requires two-factor sign-in, so it cannot be turned off.',
      ),
    ).toBeVisible();
  },
};

/** The last owner cannot be demoted: LAST_OWNER shown above the team. */
export const LastOwner: Story = {
  // Fresh handlers: they keep state, and other stories change it.
  parameters: { msw: { handlers: accountHandlers() } },
  play: async ({ canvas }) => {
    const team = await canvas.findByRole('table', { name: 'Operators' });
    await userEvent.selectOptions(await within(team).findByLabelText('Role for Admin'), 'admin');
    const dialog = await within(document.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('you will no longer manage operators');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await expect(
      await canvas.findByText(
        'This is the last active owner: make another operator an owner first.',
      ),
    ).toBeVisible();
    await expect(within(team).getByLabelText('Role for Admin')).toHaveValue('owner');
  },
};

/** Invite: the link to copy; the same email again answers OPERATOR_EXISTS. */
export const Invite: Story = {
  // Fresh handlers: they keep state, and other stories change it.
  parameters: { msw: { handlers: accountHandlers() } },
  play: async ({ canvas }) => {
    await canvas.findByLabelText('Role for Admin');
    await userEvent.type(canvas.getByLabelText('Email'), 'new.person@example.com');
    await userEvent.type(canvas.getByLabelText('Name'), 'New Person');
    await userEvent.selectOptions(canvas.getByLabelText('Role'), 'support');
    await userEvent.click(canvas.getByRole('button', { name: 'Invite operator' }));
    const link = await canvas.findByRole('textbox', { name: 'Invitation link' });
    await expect(link).toHaveValue(
      'http://localhost:8080/admin/invite/Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP',
    );
    await expect(await canvas.findByText('New Person')).toBeVisible();
    await userEvent.type(canvas.getByLabelText('Email'), 'sam.lee@example.com');
    await userEvent.type(canvas.getByLabelText('Name'), 'Sam Again');
    await userEvent.click(canvas.getByRole('button', { name: 'Invite operator' }));
    await expect(
      await canvas.findByText(
        'An operator with the email sam.lee@example.com already exists.',
        {},
        { timeout: 3000 },
      ),
    ).toBeVisible();
  },
};

/** Enrolment required (/settings?enrol=1): only the set-up; once on and stored, Continue. */
export const EnrolmentRequired: Story = {
  parameters: {
    screen: { route: '/settings?enrol=1' },
    msw: {
      handlers: [
        // Every other route answers 403 while enrolment is due: none may be called.
        http.get(api('/auth/sessions'), () => HttpResponse.json({}, { status: 403 })),
        ...accountHandlers({ role: 'viewer', requireTotp: true }),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/An owner requires two-factor sign-in/)).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Change password' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await userEvent.type(
      await canvas.findByLabelText('Code from your authenticator app'),
      VALID_OTP,
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Turn on' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'I have stored them' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screenRouter().state.location.pathname).toBe('/'));
  },
};
