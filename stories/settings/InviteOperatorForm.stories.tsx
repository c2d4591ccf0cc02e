import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { InviteOperatorForm, type InviteState } from '../../src/components/InviteOperatorForm';
import { inviteWire } from '../../tests/msw/fixtures-account';

const WIRE = inviteWire('new.person@example.com', 'New Person', 'support');
const INVITE = {
  email: WIRE.operator.email,
  name: WIRE.operator.name,
  url: WIRE.invite.url,
  expiresAt: WIRE.invite.expires_at,
};

/** Invite an operator: email, name, role with each role's rights, then the one-time link. */
const meta = {
  title: 'Settings/InviteOperatorForm',
  component: InviteOperatorForm,
  args: {
    state: { status: 'idle' },
    onSubmit: fn(),
    onCopy: fn(() => Promise.resolve()),
  },
} satisfies Meta<typeof InviteOperatorForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Empty: Invite waits for an email and a name; the role starts at Viewer, its line marked. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    const invite = canvas.getByRole('button', { name: 'Invite operator' });
    await expect(invite).toBeDisabled();
    const role = canvas.getByLabelText('Role');
    await expect(role).toHaveValue('viewer');
    await expect(role).toHaveAccessibleDescription(/Viewer: Reads every screen\./);
    await userEvent.type(canvas.getByLabelText('Email'), 'new.person@example.com');
    await expect(invite).toBeDisabled();
    await userEvent.type(canvas.getByLabelText('Name'), 'New Person');
    await userEvent.selectOptions(role, 'support');
    await userEvent.click(invite);
    await expect(args.onSubmit).toHaveBeenCalledWith({
      email: 'new.person@example.com',
      name: 'New Person',
      role: 'support',
    });
  },
};

/** Blank-only values do not count: Invite stays disabled and nothing is sent on Enter. */
export const BlankValues: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.type(canvas.getByLabelText('Email'), '   ');
    await userEvent.type(canvas.getByLabelText('Name'), '  {Enter}');
    await expect(canvas.getByRole('button', { name: 'Invite operator' })).toBeDisabled();
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

/** Sending: Invite is busy and disabled. */
export const Sending: Story = {
  args: { state: { status: 'sending' } },
  play: async ({ canvas }) => {
    const invite = canvas.getByRole('button', { name: 'Invite operator' });
    await expect(invite).toBeDisabled();
    await expect(invite).toHaveAttribute('aria-busy', 'true');
  },
};

/** OPERATOR_EXISTS: the message next to the email, which is marked invalid. */
export const EmailTaken: Story = {
  args: {
    state: {
      status: 'error',
      field: 'email',
      message: 'An operator with this email already exists.',
    },
  },
  play: async ({ canvas }) => {
    const email = canvas.getByLabelText('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('An operator with this email already exists.');
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'An operator with this email already exists.',
    );
  },
};

/** Any other refusal: a banner for the whole form, the email not marked. */
export const FormError: Story = {
  args: { state: { status: 'error', field: 'form', message: 'Internal server error' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Internal server error')).toBeVisible();
    await expect(canvas.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  },
};

/** Made: who is invited, the link to hand over with when it expires, Copy announces "Copied.". */
export const Done: Story = {
  args: { state: { status: 'done', invite: INVITE } },
  play: async ({ canvas, args }) => {
    const result = canvas.getByRole('region', { name: 'Invitation' });
    await expect(result).toHaveTextContent(
      'New Person (new.person@example.com) is invited. No mail is sent',
    );
    await expect(result).toHaveTextContent('(72 hours)');
    await expect(within(result).getByLabelText('Invitation link')).toHaveValue(INVITE.url);
    await userEvent.click(within(result).getByRole('button', { name: 'Copy link' }));
    await expect(args.onCopy).toHaveBeenCalledWith(INVITE.url);
    await expect(await within(result).findByText('Copied.')).toBeVisible();
  },
};

/** Sending then made: the form empties for the next invitation, the link stays below. */
export const ClearsAfterInvite: Story = {
  render: function Render(args) {
    const [state, setState] = useState<InviteState>({ status: 'idle' });
    return (
      <InviteOperatorForm
        {...args}
        state={state}
        onSubmit={(values) => {
          args.onSubmit(values);
          setState({ status: 'sending' });
          setTimeout(() => setState({ status: 'done', invite: INVITE }), 0);
        }}
      />
    );
  },
  play: async ({ canvas }) => {
    await userEvent.type(canvas.getByLabelText('Email'), 'new.person@example.com');
    await userEvent.type(canvas.getByLabelText('Name'), 'New Person');
    await userEvent.selectOptions(canvas.getByLabelText('Role'), 'admin');
    await userEvent.click(canvas.getByRole('button', { name: 'Invite operator' }));
    await canvas.findByRole('region', { name: 'Invitation' });
    await expect(canvas.getByLabelText('Email')).toHaveValue('');
    await expect(canvas.getByLabelText('Name')).toHaveValue('');
    await expect(canvas.getByLabelText('Role')).toHaveValue('viewer');
  },
};

/** A long name and email in the result wrap; the link field scrolls rather than widening. */
export const LongText: Story = {
  args: {
    state: {
      status: 'done',
      invite: {
        ...INVITE,
        name: 'Maximiliane Alexandra Fitzgerald-Montgomery',
        email: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
      },
    },
  },
  play: async ({ canvas }) => {
    const result = canvas.getByRole('region', { name: 'Invitation' });
    await expect(result).toHaveTextContent('Maximiliane Alexandra Fitzgerald-Montgomery');
    await expect(result.scrollWidth).toBeLessThanOrEqual(result.clientWidth);
  },
};
