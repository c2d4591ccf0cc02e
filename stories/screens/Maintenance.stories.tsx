import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { MaintenanceScreen } from '../../src/screens/MaintenanceScreen';
import { statusHandlers } from '../../tests/msw/handlers';
import {
  diagHandlers,
  enforceHandlers,
  expirationHandlers,
  maintenanceHandlers,
  operatorWhoami,
  pingHandlers,
} from '../../tests/msw/handlers-maintenance';
import { withScreen } from '../support/withScreen';

/**
 * The Maintenance screen (§2 Maintenance, §7 candidate paths, §8) against mocked maintenance
 * calls: dry run, confirmed run (then 0), cancel, pings, §8 all-404, network error, enforce now.
 */
const meta = {
  title: 'Screens/Maintenance',
  component: MaintenanceScreen,
  decorators: [withScreen],
  parameters: {
    screen: { route: '/maintenance' },
    msw: { handlers: [statusHandlers.ok(), ...maintenanceHandlers()] },
  },
} satisfies Meta<typeof MaintenanceScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Dry run, then Run now → confirm → applied; a second dry run shows 0. */
export const DryRunThenRun: Story = {
  parameters: {
    msw: {
      handlers: [statusHandlers.ok(), ...expirationHandlers.stateful(), ...maintenanceHandlers()],
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' });
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run' }));
    await expect(await canvas.findByText('7 users would lose access.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Run now' }));
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Run expiration now?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, run now' }));
    await expect(await canvas.findByRole('heading', { name: 'Expiration applied' })).toBeVisible();
    await expect(canvas.getByText('7 processed · 7 affected.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run' }));
    await expect(await canvas.findByText('0 users would lose access.')).toBeVisible();
  },
};

/** Cancel in the confirmation applies nothing. */
export const CancelRun: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Run now' }));
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Run expiration now?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(within(document.body).queryByRole('alertdialog')).toBeNull();
    await expect(canvas.queryByRole('heading', { name: 'Expiration applied' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run' }));
    await expect(await canvas.findByText('7 users would lose access.')).toBeVisible();
  },
};

/** Pings: not configured forum, LemonSqueezy ok, ClickBank secret variant; diagnostics. */
export const PingsAndDiagnostics: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Ping forum' }));
    await expect(
      await canvas.findByText('ok: false · reason: Discourse not configured', { exact: false }),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Ping LemonSqueezy' }));
    await expect(await canvas.findByText(/Authenticated as John Doe/)).toBeVisible();
    await userEvent.selectOptions(canvas.getByLabelText('ClickBank variant'), 'secret');
    await userEvent.click(canvas.getByRole('button', { name: 'Ping ClickBank' }));
    await expect(
      await canvas.findByText(/encrypts and decrypts a TEST Instant Notification/),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Load diagnostics' }));
    await expect(await canvas.findByText('counts.log_rows')).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Raw diagnostics' })).toBeVisible();
  },
};

/** Every forum ping candidate answers 404 and the dry run's too: the §8 message. */
export const AllCandidatesNotFound: Story = {
  parameters: {
    msw: {
      handlers: [
        statusHandlers.ok(),
        ...pingHandlers.discourseAllNotFound(),
        ...expirationHandlers.allNotFound(),
        ...maintenanceHandlers(),
      ],
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Ping forum' }));
    await expect(
      await canvas.findByText(/^ping failed: Not Found – none of the candidate paths responded/),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run' }));
    await expect(
      await canvas.findByText(
        'Not Found – none of the candidate paths responded. Please confirm the backend route.',
      ),
    ).toBeVisible();
  },
};

/** No answer: 'Network error'; a failing diagnostics call shows its message. */
export const NetworkError: Story = {
  parameters: {
    msw: {
      handlers: [
        statusHandlers.ok(),
        ...expirationHandlers.networkError(),
        pingHandlers.lemonsqueezyNetworkError(),
        diagHandlers.error(500, 'Diagnostics failed'),
        ...maintenanceHandlers(),
      ],
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Dry run' }));
    await expect(await canvas.findByText('Network error')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Ping LemonSqueezy' }));
    await expect(await canvas.findByText('ping failed: Network error')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Load diagnostics' }));
    await expect(await canvas.findByText('Diagnostics failed')).toBeVisible();
  },
};

/** A dry run that never answers: every action disabled, the dry run busy (§4). */
export const ActionRunning: Story = {
  parameters: {
    msw: {
      handlers: [statusHandlers.ok(), ...expirationHandlers.loading(), ...maintenanceHandlers()],
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Dry run' }));
    const running = await canvas.findByRole('button', { name: 'Dry run…' });
    await expect(running).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getByRole('button', { name: 'Run now' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Ping forum' })).toBeDisabled();
  },
};

/** Enforce now for one email, and an unknown email's 404 message. */
export const EnforceNow: Story = {
  parameters: {
    msw: { handlers: [statusHandlers.ok(), enforceHandlers.unknown(), ...maintenanceHandlers()] },
  },
  play: async ({ canvas }) => {
    await userEvent.type(await canvas.findByLabelText('Email'), 'nobody@example.com');
    await userEvent.click(canvas.getByRole('button', { name: 'Enforce now' }));
    await expect(await canvas.findByText('No user with email nobody@example.com')).toBeVisible();
  },
};

/**
 * Reconcile LemonSqueezy: a dry run lists what differs, Apply asks first and fixes it, a second
 * dry run finds nothing; ClickBank answers that it is not configured.
 */
export const Reconcile: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Dry run LemonSqueezy' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Dry run: LemonSqueezy' }),
    ).toBeVisible();
    await expect(canvas.getByText('1,250 checked · 2 missing · 1 mismatched')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Apply LemonSqueezy' }));
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Apply the LemonSqueezy reconciliation?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, apply' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Applied: LemonSqueezy' }),
    ).toBeVisible();
    await expect(
      canvas.getByText('1,250 checked · 2 missing · 1 mismatched · 3 fixed'),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run LemonSqueezy' }));
    await expect(
      await canvas.findByText('Nothing to fix: the database agrees with LemonSqueezy.'),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run ClickBank' }));
    await expect(
      await canvas.findByRole('heading', { name: 'ClickBank is not configured' }),
    ).toBeVisible();
  },
};

/**
 * A support operator: reconciliation, even a dry run, needs the admin role on the server, so both
 * buttons are disabled and the page says why; Enforce now stays theirs.
 */
export const ReconcileAsSupport: Story = {
  parameters: {
    msw: { handlers: [operatorWhoami('support'), statusHandlers.ok(), ...maintenanceHandlers()] },
  },
  play: async ({ canvas }) => {
    // The role arrives with the who-am-I answer; until then the server would decide.
    await expect(
      await canvas.findAllByText('Applying needs the admin role; a dry run changes nothing.'),
    ).toHaveLength(2);
    await expect(canvas.getByRole('button', { name: 'Apply LemonSqueezy' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Apply ClickBank' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Dry run LemonSqueezy' })).toBeDisabled();
    await expect(canvas.getByRole('list', { name: 'What your role cannot do' })).toHaveTextContent(
      'Your role (Support) cannot run maintenance, pings and diagnostics: ask an owner for Admin.',
    );
  },
};
