import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { OperatorsSection } from '../../src/components/OperatorsSection';
import { OPERATORS } from './accountData';

/** Operators (owners): every status, changes and their confirmations, LAST_OWNER, the invite form. */
const meta = {
  title: 'Settings/OperatorsSection',
  component: OperatorsSection,
  args: {
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
    onCopy: fn(() => Promise.resolve()),
  },
} satisfies Meta<typeof OperatorsSection>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The team in every status; Disable asks first and names what it ends. */
export const OwnerView: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Operators' });
    await expect(within(table).getByText('Admin (you)')).toBeVisible();
    for (const status of ['Active', 'Invited', 'Disabled']) {
      await expect(within(table).getAllByText(status).length).toBeGreaterThan(0);
    }
    await expect(within(table).getByText(/Link expires/)).toBeVisible();
    await expect(within(table).getByLabelText('Role for Dana Okafor')).toHaveValue('admin');
    await expect(within(table).getByRole('button', { name: 'Enable Old Hand' })).toBeVisible();
    await userEvent.click(within(table).getByRole('button', { name: 'Disable Sam Lee' }));
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Disable Sam Lee?',
    });
    await expect(dialog).toHaveTextContent("Disabling ends all of Sam Lee's sessions now");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable now' }));
    await expect(args.onChange).toHaveBeenCalledWith(OPERATORS[2], { disabled: true });
  },
};

/** A role change asks first; Cancel keeps the role. */
export const ChangeRole: Story = {
  play: async ({ canvas, args }) => {
    const select = canvas.getByLabelText('Role for Sam Lee');
    await userEvent.selectOptions(select, 'admin');
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Make Sam Lee Admin?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(select).toHaveValue('support');
    await expect(args.onChange).not.toHaveBeenCalled();
    await userEvent.selectOptions(select, 'admin');
    const again = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(again).getByRole('button', { name: 'Change role' }));
    await expect(args.onChange).toHaveBeenCalledWith(OPERATORS[2], { role: 'admin' });
  },
};

/** Disabling one's own account warns that it signs this browser out. */
export const DisableSelfWarns: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Disable Admin' }));
    const dialog = await within(document.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('This is your own account: you will be signed out');
  },
};

/** LAST_OWNER: the server's message, clearly, above the table. */
export const LastOwnerError: Story = {
  args: {
    notice: {
      tone: 'danger',
      message: 'This is the last active owner: make another operator an owner first.',
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'This is the last active owner: make another operator an owner first.',
    );
  },
};

/** The policy switch, on, reports its flip. */
export const PolicyOn: Story = {
  args: { list: { status: 'ready', data: { operators: [...OPERATORS], requireTotp: true } } },
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', {
      name: 'Require two-factor sign-in for every operator',
    });
    await expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await expect(args.onPolicyChange).toHaveBeenCalledWith(false);
  },
};

/** The invite form: each role's rights listed; Invite operator sends email, name and role. */
export const InviteForm: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByLabelText('Role')).toHaveAccessibleDescription(
      /Viewer: Reads every screen/,
    );
    await userEvent.type(canvas.getByLabelText('Email'), 'new.person@example.com');
    await userEvent.type(canvas.getByLabelText('Name'), 'New Person');
    await userEvent.selectOptions(canvas.getByLabelText('Role'), 'support');
    await userEvent.click(canvas.getByRole('button', { name: 'Invite operator' }));
    await expect(args.onInvite).toHaveBeenCalledWith({
      email: 'new.person@example.com',
      name: 'New Person',
      role: 'support',
    });
  },
};

/** The invitation made: the link to copy and when it expires. */
export const InviteLinkShown: Story = {
  args: {
    invite: {
      status: 'done',
      invite: {
        email: 'new.person@example.com',
        name: 'New Person',
        url: 'http://localhost:8080/admin/invite/Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP',
        expiresAt: '2026-11-23T12:00:00.000Z',
      },
    },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('textbox', { name: 'Invitation link' })).toHaveValue(
      'http://localhost:8080/admin/invite/Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP',
    );
    await expect(canvas.getByRole('region', { name: 'Invitation' })).toHaveTextContent(
      /expires 2026-11-23 12:00 UTC \(72 hours\)/,
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Copy link' }));
    await expect(args.onCopy).toHaveBeenCalledOnce();
  },
};

/** OPERATOR_EXISTS: the message next to Email. */
export const InviteExists: Story = {
  args: {
    invite: {
      status: 'error',
      field: 'email',
      message: 'An operator with the email sam.lee@example.com already exists.',
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Email')).toHaveAccessibleDescription(
      'An operator with the email sam.lee@example.com already exists.',
    );
  },
};

/** Loading the team. */
export const Loading: Story = {
  args: { list: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading operators…')).toBeVisible();
    await expect(canvas.queryByRole('switch')).toBeNull();
  },
};

/** The team failed to load (e.g. 403 FORBIDDEN): the message and Retry. */
export const Error: Story = {
  args: {
    list: { status: 'error', message: 'Your role (admin) cannot manage operators: ask an owner.' },
  },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('Your role (admin) cannot manage operators: ask an owner.'),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};
