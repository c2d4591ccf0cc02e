import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { WebhookDeliveryDrawer } from '../../src/components/WebhookDeliveryDrawer';
import { WEBHOOK_ROWS, toDeliveryDetail } from '../../tests/msw/fixtures-webhooks';
import { withRouter } from '../support/withRouter';

const APPLIED = toDeliveryDetail(WEBHOOK_ROWS[0]!);
const CLICKBANK = toDeliveryDetail(WEBHOOK_ROWS[2]!);
const REFUSED = toDeliveryDetail(WEBHOOK_ROWS[5]!);
const FAILED = toDeliveryDetail(WEBHOOK_ROWS[7]!);

/** The open drawer (it lives in a portal, so plays look in document.body). */
async function findDrawer() {
  return within(document.body).findByRole('dialog', { name: 'Webhook delivery' });
}

/** A section of the drawer, by its heading. */
function section(drawer: HTMLElement, name: string): HTMLElement {
  const found = within(drawer).getByRole('heading', { level: 3, name }).closest('section');
  if (!found) throw new globalThis.Error(`No section headed '${name}'`);
  return found;
}

/** Scrolls the drawer so a section sits under the sticky header, for the screenshot. */
function scrollToSection(drawer: HTMLElement, name: string) {
  const header = drawer.querySelector('header');
  drawer.scrollTop = section(drawer, name).offsetTop - (header?.offsetHeight ?? 0);
}

const meta = {
  title: 'Webhooks/WebhookDeliveryDrawer',
  component: WebhookDeliveryDrawer,
  decorators: [withRouter],
  args: {
    isOpen: true,
    onOpenChange: fn(),
    detail: { status: 'ready', data: APPLIED },
    canReplay: true,
    replay: { status: 'idle' },
    onReplay: fn(),
  },
} satisfies Meta<typeof WebhookDeliveryDrawer>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * An applied LemonSqueezy subscription_created: the delivery's facts (the email links to the
 * customer's page), what it changed, Replay, the
 * provider's payload pretty-printed and the headers kept (no signature); Escape asks to close.
 */
export const Applied: Story = {
  play: async ({ args }) => {
    const drawer = await findDrawer();
    await expect(
      within(drawer)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Delivery', 'What it changed', 'Replay', 'Payload', 'Headers']);
    await expect(within(drawer).getByText('LemonSqueezy · subscription_created')).toBeVisible();
    const facts = section(drawer, 'Delivery');
    await expect(facts).toHaveTextContent('2026-11-20 11:59:00');
    await expect(facts).toHaveTextContent('Applied');
    await expect(within(facts).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/customers\/ada%40example\.com$/),
    );
    await expect(section(drawer, 'What it changed')).toHaveTextContent('access.grant');
    const payload = within(drawer).getByRole('region', { name: 'Payload' });
    await expect(payload).toHaveTextContent('"event_name": "subscription_created"');
    await expect(payload).toHaveTextContent('"user_email": "ada@example.com"');
    const headers = within(drawer).getByRole('region', { name: 'Headers' });
    await expect(headers).toHaveTextContent('"x-event-name": "subscription_created"');
    await expect(headers).not.toHaveTextContent(/signature/i);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Replay' }));
    await expect(args.onReplay).toHaveBeenCalledOnce();
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
  },
};

/** While the delivery loads: 'Loading delivery…'. */
export const Loading: Story = {
  args: { detail: { status: 'loading' } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('status')).toHaveTextContent('Loading delivery…');
  },
};

/** A failed load shows the server's message. */
export const Error: Story = {
  args: { detail: { status: 'error', message: 'No such webhook delivery' } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('alert')).toHaveTextContent('No such webhook delivery');
  },
};

/**
 * A forged delivery: refused (signature), kept by size only, so there is no payload to show and
 * nothing to replay; the button says why.
 */
export const RefusedDelivery: Story = {
  args: { detail: { status: 'ready', data: REFUSED } },
  play: async ({ args }) => {
    const drawer = await findDrawer();
    await expect(section(drawer, 'Delivery')).toHaveTextContent('Refused (signature)');
    await expect(section(drawer, 'Delivery')).toHaveTextContent('401');
    await expect(section(drawer, 'What it changed')).toHaveTextContent(
      'Nothing: the signature did not prove it came from the provider.',
    );
    await expect(section(drawer, 'Payload')).toHaveTextContent(
      'Only its size was kept (1.4 KiB): the delivery was not verified.',
    );
    const replay = within(drawer).getByRole('button', { name: 'Replay' });
    await expect(replay).toBeDisabled();
    await expect(replay).toHaveAccessibleDescription(
      'Only a verified delivery can be replayed: this one kept only its size.',
    );
    await expect(args.onReplay).not.toHaveBeenCalled();
  },
};

/** A ClickBank notification: the decrypted notification is the payload, long and scrollable. */
export const LongPayload: Story = {
  args: { detail: { status: 'ready', data: CLICKBANK } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByText('ClickBank · SALE')).toBeVisible();
    const payload = within(drawer).getByRole('region', { name: 'Payload' });
    await expect(payload).toHaveTextContent('"transactionType": "SALE"');
    await expect(payload).toHaveTextContent('"rebillFrequency": "MONTHLY"');
    scrollToSection(drawer, 'Payload');
  },
};

/** A failed delivery an admin replayed: the result reads 'Applied: …' and the last replay shows. */
export const ReplayResult: Story = {
  args: {
    detail: { status: 'ready', data: FAILED },
    replay: {
      status: 'done',
      result: { outcome: 'applied', effects: ['subscription.updated'], error: null },
    },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(section(drawer, 'Delivery')).toHaveTextContent('Failed');
    await expect(section(drawer, 'Delivery')).toHaveTextContent('2026-11-20 11:58:00 · Applied');
    await expect(within(section(drawer, 'Replay')).getByRole('status')).toHaveTextContent(
      'Applied: subscription.updated.',
    );
    scrollToSection(drawer, 'What it changed');
  },
};

/** A replay of an applied delivery changes nothing: 'Already applied: nothing changed.'. */
export const ReplayDuplicate: Story = {
  args: {
    replay: { status: 'done', result: { outcome: 'duplicate', effects: [], error: null } },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(section(drawer, 'Replay')).getByRole('status')).toHaveTextContent(
      'Already applied: nothing changed.',
    );
    scrollToSection(drawer, 'What it changed');
  },
};

/** While the replay runs the button reads 'Replaying…' and cannot be pressed again. */
export const Replaying: Story = {
  args: { replay: { status: 'running' } },
  play: async ({ args }) => {
    const drawer = await findDrawer();
    const button = within(drawer).getByRole('button', { name: 'Replaying…' });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(button);
    await expect(args.onReplay).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
    scrollToSection(drawer, 'What it changed');
  },
};

/** An operator below admin sees Replay disabled with the reason. */
export const ReplayNotAllowed: Story = {
  args: { canReplay: false },
  play: async ({ args }) => {
    const drawer = await findDrawer();
    const replay = within(drawer).getByRole('button', { name: 'Replay' });
    await expect(replay).toBeDisabled();
    await expect(replay).toHaveAccessibleDescription('Replaying needs the admin role.');
    await expect(args.onReplay).not.toHaveBeenCalled();
    scrollToSection(drawer, 'What it changed');
  },
};

/** The replay request itself failed (e.g. the session expired): its message in a danger banner. */
export const ReplayError: Story = {
  args: {
    replay: {
      status: 'error',
      message: 'Only admin operators and above may run maintenance, pings and diagnostics.',
    },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(section(drawer, 'Replay')).getByRole('alert')).toHaveTextContent(
      'Only admin operators and above',
    );
    scrollToSection(drawer, 'What it changed');
  },
};
