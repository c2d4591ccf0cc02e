import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { within } from 'storybook/test';
import { expect, userEvent, waitFor } from 'storybook/test';
import { InviteScreen } from '../../src/screens/InviteScreen';
import { api } from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

const WAIT = { timeout: 8000 } as const;
const TOKEN = 'Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP';
const INVITEE = 'sam.support@team.example';
const STRONG = 'correct horse battery staple';

/** The bodies the screen posted, as 'path body-json', oldest first. */
const posted: string[] = [];
const record: HttpHandler = http.post(api('/auth/invite/*'), async ({ request }) => {
  posted.push(`${new URL(request.url).pathname} ${await request.clone().text()}`);
  return undefined;
});

const invalid = () =>
  HttpResponse.json(
    { ok: false, code: 'INVITE_INVALID', message: 'This invitation link is not valid.' },
    { status: 404 },
  );

/** POST /auth/invite/check and /auth/invite/accept as docs/api.md "Operators" pins them. */
const invite = {
  valid: () =>
    http.post(api('/auth/invite/check'), () =>
      HttpResponse.json({
        ok: true,
        email: INVITEE,
        name: 'Sam Support',
        role: 'support',
        expires_at: '2026-11-23T12:00:00.000Z',
      }),
    ),
  invalid: () => http.post(api('/auth/invite/check'), invalid),
  checking: () =>
    http.post(api('/auth/invite/check'), async () => {
      await delay('infinite');
      return new HttpResponse(null, { status: 204 });
    }),
  accepted: () =>
    http.post(api('/auth/invite/accept'), () => HttpResponse.json({ ok: true, email: INVITEE })),
  /** The server's password rule refuses every password (400 WEAK_PASSWORD). */
  weak: () =>
    http.post(api('/auth/invite/accept'), () =>
      HttpResponse.json(
        {
          ok: false,
          error: 'bad_request',
          code: 'WEAK_PASSWORD',
          message:
            'This password is too common. Choose one that is not on lists of leaked passwords.',
        },
        { status: 400 },
      ),
    ),
  /** The link was used (or replaced) between the check and the submit. */
  usedMeanwhile: () => http.post(api('/auth/invite/accept'), invalid),
};

/**
 * The invitation page (/invite/:token, no session) against mocked POST /auth/invite/check and
 * /auth/invite/accept: a valid link sets the password, an expired or used link says so, the
 * server's refusal of a weak password shows as it says it, and mismatched fields send nothing.
 */
const meta = {
  title: 'Screens/Invite',
  component: InviteScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: `/invite/${TOKEN}`, path: '/invite/:token' },
    msw: { handlers: [record, invite.valid(), invite.accepted()] },
  },
  beforeEach: () => {
    posted.length = 0;
  },
} satisfies Meta<typeof InviteScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Types the password into both fields and submits. */
async function setPassword(
  canvas: ReturnType<typeof within>,
  password: string,
  confirmation = password,
) {
  await userEvent.type(canvas.getByLabelText('New password'), password);
  await userEvent.type(canvas.getByLabelText('Confirm new password'), confirmation);
  await userEvent.click(canvas.getByRole('button', { name: 'Set password' }));
}

/** While the link is checked: 'Checking your invitation…'. */
export const Checking: Story = {
  parameters: { msw: { handlers: [invite.checking()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', {}, WAIT)).toHaveTextContent(
      'Checking your invitation…',
    );
  },
};

/**
 * A valid link: who it is for and the role, then the password typed twice is posted with the
 * token, and the page says to sign in.
 */
export const ValidInviteSetsPassword: Story = {
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/you are invited as/, {}, WAIT)).toHaveTextContent(
      `Sam Support, you are invited as Support with ${INVITEE}.`,
    );
    await setPassword(canvas, STRONG);
    await expect(
      await canvas.findByText(`Your password is set. Sign in as ${INVITEE}.`, {}, WAIT),
    ).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await expect(posted).toEqual([
      `/api/admin/auth/invite/check ${JSON.stringify({ token: TOKEN })}`,
      `/api/admin/auth/invite/accept ${JSON.stringify({ token: TOKEN, password: STRONG })}`,
    ]);
  },
};

/** An expired, used or unknown link (404 INVITE_INVALID): the page says so, no form. */
export const ExpiredOrUsedInvite: Story = {
  parameters: { msw: { handlers: [invite.invalid()] } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText(/This invitation link is not valid any more/, {}, WAIT),
    ).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(canvas.queryByLabelText('New password')).toBeNull();
  },
};

/** The link was used between the check and the submit: the same message replaces the form. */
export const UsedBeforeSubmit: Story = {
  parameters: { msw: { handlers: [invite.valid(), invite.usedMeanwhile()] } },
  play: async ({ canvas }) => {
    await canvas.findByLabelText('New password', {}, WAIT);
    await setPassword(canvas, STRONG);
    await expect(
      await canvas.findByText(/This invitation link is not valid any more/, {}, WAIT),
    ).toBeVisible();
    await expect(canvas.queryByLabelText('New password')).toBeNull();
  },
};

/** The server refuses a weak password (400 WEAK_PASSWORD): its sentence shows, the form stays. */
export const WeakPasswordRefused: Story = {
  parameters: { msw: { handlers: [record, invite.valid(), invite.weak()] } },
  play: async ({ canvas }) => {
    await canvas.findByLabelText('New password', {}, WAIT);
    await setPassword(canvas, 'password1234');
    await expect(
      await canvas.findByText(
        'This password is too common. Choose one that is not on lists of leaked passwords.',
        {},
        WAIT,
      ),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Set password' })).toBeEnabled();
    await expect(canvas.queryByText(/Your password is set/)).toBeNull();
    await waitFor(() => expect(posted).toHaveLength(2));
  },
};

/** The two fields differ: the page says so and posts nothing. */
export const PasswordsDiffer: Story = {
  play: async ({ canvas }) => {
    await canvas.findByLabelText('New password', {}, WAIT);
    await setPassword(canvas, STRONG, `${STRONG}!`);
    await expect(await canvas.findByText('The two passwords do not match.')).toBeVisible();
    await expect(posted.filter((p) => p.includes('/accept'))).toEqual([]);
  },
};
