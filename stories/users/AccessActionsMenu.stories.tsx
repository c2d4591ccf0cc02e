import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AccessActionsMenu } from '../../src/components/AccessActionsMenu';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';

/**
 * The §2 Edit actions wording ("grant now; grant until a date; revoke now; revoke at renewal
 * (deferred); revoke on a date"), in sentence case; '…' marks the entries that ask for a date.
 */
const MENU_ITEMS = [
  'Grant now',
  'Grant until a date…',
  'Revoke now',
  'Revoke at renewal (deferred)',
  'Revoke on a date…',
];

const meta = {
  title: 'Users/AccessActionsMenu',
  component: AccessActionsMenu,
  args: {
    email: 'ada@example.com',
    currentPeriodEnd: '2026-12-14T10:22:00Z',
    now: new Date(FIXTURE_NOW),
    onAction: fn(),
  },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)', display: 'flex', justifyContent: 'flex-end' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof AccessActionsMenu>;
export default meta;
type Story = StoryObj<typeof meta>;

const body = () => within(document.body);

/** Waits until no dialog or menu is left and the page takes pointer input again. */
async function expectAllClosed() {
  await waitFor(() => expect(body().queryByRole('menu')).toBeNull());
  await waitFor(() => expect(body().queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(body().queryByRole('alertdialog')).toBeNull());
  await waitFor(() => expect(document.body.style.pointerEvents).not.toBe('none'));
}

/** The open menu: the five §2 actions in the §2 wording, grants first, revocations after a separator. */
export const Open: Story = {
  play: async ({ canvas }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await expect(trigger).toHaveTextContent('Edit');
    await userEvent.click(trigger);
    const menu = await body().findByRole('menu');
    await expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(MENU_ITEMS);
    await expect(within(menu).getByRole('separator')).toBeInTheDocument();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  },
};

/** Grant now acts at once, with no dialog; focus returns to Edit. */
export const GrantNow: Story = {
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await userEvent.click(trigger);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Grant now' }));
    await expect(args.onAction).toHaveBeenCalledOnce();
    await expect(args.onAction).toHaveBeenCalledWith('ada@example.com', { kind: 'grant' });
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
  },
};

/** Revoke now asks first; Cancel leaves everything as it was, confirming acts. Focus comes back to Edit. */
export const RevokeNow: Story = {
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await userEvent.click(trigger);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Revoke now' }));
    let dialog = await body().findByRole('alertdialog', { name: 'Revoke access now?' });
    await expect(dialog).toHaveAccessibleDescription(
      'ada@example.com loses forum access immediately.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
    await expect(args.onAction).not.toHaveBeenCalled();

    await userEvent.click(trigger);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Revoke now' }));
    dialog = await body().findByRole('alertdialog', { name: 'Revoke access now?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke now' }));
    await expect(args.onAction).toHaveBeenCalledOnce();
    await expect(args.onAction).toHaveBeenCalledWith('ada@example.com', { kind: 'revoke_now' });
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
  },
};

/** Revoke at renewal (deferred) names when access ends, then acts on confirmation. */
export const RevokeAtRenewal: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Edit access for ada@example.com' }));
    await userEvent.click(
      await body().findByRole('menuitem', { name: 'Revoke at renewal (deferred)' }),
    );
    const dialog = await body().findByRole('alertdialog', { name: 'Revoke access at renewal?' });
    await expect(dialog).toHaveAccessibleDescription(
      'ada@example.com keeps forum access until the current billing period ends (2026-12-14 10:22 UTC), then loses it.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke at renewal' }));
    await expect(args.onAction).toHaveBeenCalledWith('ada@example.com', {
      kind: 'revoke_deferred',
    });
    await expectAllClosed();
  },
};

/** Grant until a date…: the date dialog starts at tomorrow 09:00 UTC; Confirm sends it in wire form. */
export const GrantUntilDate: Story = {
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await userEvent.click(trigger);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Grant until a date…' }));
    const dialog = await body().findByRole('dialog', { name: 'Grant access until a date' });
    await expect(within(dialog).getByLabelText('Date and time (UTC)')).toHaveValue(
      '2026-11-21T09:00',
    );
    await expect(within(dialog).getByLabelText('Date and time (UTC)')).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(args.onAction).toHaveBeenCalledWith('ada@example.com', {
      kind: 'grant_on_date',
      until: '2026-11-21 09:00:00',
    });
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
  },
};

/** By keyboard alone: open with Enter, move with arrows, pick Revoke on a date…, leave with Escape. */
export const KeyboardRevokeOnDate: Story = {
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await body().findByRole('menu');
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Grant now' })).toHaveFocus(),
    );
    await userEvent.keyboard('{ArrowUp}');
    await expect(within(menu).getByRole('menuitem', { name: 'Revoke on a date…' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const dialog = await body().findByRole('dialog', { name: 'Revoke access on a date' });
    await expect(within(dialog).getByLabelText('Date and time (UTC)')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
    await expect(args.onAction).not.toHaveBeenCalled();

    // Escape on the open menu also returns focus to Edit.
    await userEvent.keyboard('{Enter}');
    await body().findByRole('menu');
    await userEvent.keyboard('{Escape}');
    await expectAllClosed();
    await expect(trigger).toHaveFocus();
  },
};

/** An action for this user is running: Edit stays focusable but does not open. */
export const Pending: Story = {
  args: { isPending: true },
  play: async ({ canvas }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await expect(trigger).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(trigger);
    await expect(body().queryByRole('menu')).toBeNull();
    await userEvent.keyboard('{Enter}');
    await expect(body().queryByRole('menu')).toBeNull();
    trigger.blur();
  },
};

/** A viewer's role may not run access actions: Edit never opens and says why. */
export const BlockedByRole: Story = {
  args: {
    blockedReason:
      'Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support.',
  },
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await expect(trigger).toHaveAttribute('aria-disabled', 'true');
    await expect(trigger).toHaveAccessibleDescription(
      'Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support.',
    );
    await userEvent.click(trigger);
    await expect(body().queryByRole('menu')).toBeNull();
    await userEvent.keyboard('{Enter}');
    await expect(body().queryByRole('menu')).toBeNull();
    await expect(args.onAction).not.toHaveBeenCalled();
    trigger.blur();
  },
};
