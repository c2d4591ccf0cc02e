import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { SettingsView, type SettingsViewProps } from '../../src/components/SettingsView';
import type { TotpSectionProps } from '../../src/components/TotpSection';
import { OPERATORS, SESSIONS } from './accountData';

type FullProps = Extract<SettingsViewProps, { mode: 'full' }>;

const totp: TotpSectionProps = {
  state: { step: 'off', error: null },
  disable: { status: 'closed' },
  onSetUp: fn(),
  onEnable: fn(),
  onCancelSetup: fn(),
  onDownloadCodes: fn(),
  onAcknowledgeCodes: fn(),
  onDisableRequest: fn(),
  onDisable: fn(),
  onDisableCancel: fn(),
};
const account: FullProps = {
  mode: 'full' as const,
  password: { state: { status: 'idle' as const }, onSubmit: fn() },
  sessions: {
    sessions: { status: 'ready' as const, data: SESSIONS },
    endingId: null,
    endError: null,
    onEnd: fn(),
    onRetry: fn(),
  },
  totp,
  operators: null,
};

const ownerProps: FullProps = {
  ...account,
  operators: {
    list: { status: 'ready', data: { operators: [...OPERATORS], requireTotp: false } },
    selfId: 1,
    busyId: null,
    notice: null,
    isPolicySaving: false,
    invite: { status: 'idle' },
    onChange: fn(),
    onPolicyChange: fn(),
    onInvite: fn(),
    onRetry: fn(),
  },
};
const onContinue = fn();

const meta = {
  title: 'Settings/SettingsView',
  // The screen sits in the layout's padded main landmark; the story gives it the same room.
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta;
export default meta;
type Story = StoryObj;

/** No operator named (a backend without operator accounts): the §2 Settings placeholder. */
export const Default: Story = {
  render: () => <SettingsView />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Settings' })).toHaveTextContent(
      'Environment and integration settings will go here.',
    );
  },
};

/** A non-owner: My account only; the Operators section is not there. */
export const NonOwner: Story = {
  render: () => <SettingsView {...account} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 2, name: 'My account' })).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Change password' })).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Two-factor sign-in' })).toBeVisible();
    await expect(canvas.getByRole('table', { name: 'My sessions' })).toBeVisible();
    await expect(canvas.queryByRole('heading', { name: 'Operators' })).toBeNull();
    await expect(
      canvas.getByText('Environment and integration settings will go here.'),
    ).toBeVisible();
  },
};

/** An owner: My account and Operators. */
export const Owner: Story = {
  render: () => <SettingsView {...ownerProps} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 2, name: 'Operators' })).toBeVisible();
    await expect(canvas.getByRole('table', { name: 'Operators' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Invite operator' })).toBeVisible();
  },
};

/** Enrolment required: only the explanation and the two-factor set-up. */
export const EnrolmentRequired: Story = {
  render: () => <SettingsView mode="enrol" totp={totp} onContinue={onContinue} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/An owner requires two-factor sign-in/)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Change password' })).toBeNull();
    await expect(canvas.queryByText(/Environment and integration/)).toBeNull();
  },
};

/** Enrolment done and the codes stored: Continue, focused, goes on to the dashboard. */
export const EnrolmentDone: Story = {
  render: () => (
    <SettingsView mode="enrol" totp={{ ...totp, state: { step: 'on' } }} onContinue={onContinue} />
  ),
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Continue' });
    await expect(button).toHaveFocus();
    await userEvent.click(button);
    await expect(onContinue).toHaveBeenCalled();
  },
};
