import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { LoginView } from '../../src/components/LoginView';

const meta = {
  title: 'Login/LoginView',
  component: LoginView,
  parameters: { layout: 'fullscreen' },
  args: {
    email: 'admin@example.com',
    password: '',
    isSigningIn: false,
    onEmailChange: fn(),
    onPasswordChange: fn(),
    onSubmit: fn(),
  },
} satisfies Meta<typeof LoginView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Collects the native submit events that reach the window, to check the view prevented them. */
function watchSubmits() {
  const events: Event[] = [];
  const listener = (event: Event) => events.push(event);
  window.addEventListener('submit', listener);
  return { events, stop: () => window.removeEventListener('submit', listener) };
}

/** Ready to sign in: the email is pre-filled, so the password has focus. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
    await expect(canvas.getByText('MG Admin Console')).toBeVisible();
    await expect(canvas.getByText('v0.0.1')).toBeVisible();
    await expect(canvas.getByRole('form', { name: 'Admin Login' })).toBeVisible();

    const email = canvas.getByLabelText('Email');
    const password = canvas.getByLabelText('Password');
    await expect(email).toHaveValue('admin@example.com');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('autocomplete', 'username');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveAttribute('autocomplete', 'current-password');
    await expect(password).toHaveFocus();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.queryByRole('status')).toBeNull();

    const button = canvas.getByRole('button', { name: 'Sign in' });
    await expect(button).toBeEnabled();
    await expect(button).toHaveAttribute('type', 'submit');
    await expect(button).toHaveAttribute('aria-busy', 'false');

    await userEvent.type(password, 's');
    await expect(args.onPasswordChange).toHaveBeenLastCalledWith('s');
    await userEvent.type(email, 'x');
    await expect(args.onEmailChange).toHaveBeenLastCalledWith('admin@example.comx');

    const submits = watchSubmits();
    try {
      await userEvent.type(password, '{Enter}');
      await expect(args.onSubmit).toHaveBeenCalledOnce();
      await userEvent.click(button);
      await expect(args.onSubmit).toHaveBeenCalledTimes(2);
      await expect(submits.events).toHaveLength(2);
      await expect(submits.events.every((event) => event.defaultPrevented)).toBe(true);
    } finally {
      submits.stop();
    }
  },
};

/** No email pre-filled: the Email field has focus; nothing is validated on the client (§5). */
export const EmptyEmail: Story = {
  args: { ...Idle.args, email: '' },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByLabelText('Email')).toHaveFocus();
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(args.onSubmit).toHaveBeenCalledOnce();
  },
};

/** The login call is in flight: 'Signing in…', disabled and busy; Enter does not submit again. */
export const SigningIn: Story = {
  args: { ...Idle.args, password: 'correct horse', isSigningIn: true },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('button', { name: 'Sign in' })).toBeNull();
    const button = canvas.getByRole('button', { name: 'Signing in…' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.type(canvas.getByLabelText('Password'), '{Enter}');
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

/** Asserts the red error banner shows exactly `message`, no amber notice is shown, and signing in is possible. */
async function expectOnlyError(canvasElement: HTMLElement, message: string) {
  const canvas = within(canvasElement);
  const error = canvas.getByRole('alert');
  await expect(error.textContent).toBe(message);
  await expect(error).toHaveAttribute('data-tone', 'danger');
  await expect(canvas.queryByRole('status')).toBeNull();
  await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
}

/** INCORRECT_USER (§8). */
export const IncorrectUser: Story = {
  args: { ...Idle.args, error: 'Incorrect user' },
  play: async ({ canvasElement }) => expectOnlyError(canvasElement, 'Incorrect user'),
};

/** INCORRECT_PASSWORD (§8). */
export const IncorrectPassword: Story = {
  args: { ...Idle.args, error: 'Incorrect password' },
  play: async ({ canvasElement }) => expectOnlyError(canvasElement, 'Incorrect password'),
};

/** INVALID_JWT (§8). */
export const InvalidJwt: Story = {
  args: { ...Idle.args, error: 'Your session has expired. Please sign in again.' },
  play: async ({ canvasElement }) =>
    expectOnlyError(canvasElement, 'Your session has expired. Please sign in again.'),
};

/** NO_TOKEN (§8). */
export const NoToken: Story = {
  args: { ...Idle.args, error: 'Please sign in.' },
  play: async ({ canvasElement }) => expectOnlyError(canvasElement, 'Please sign in.'),
};

/** EMPTY_DATABASE (§8). */
export const EmptyDatabase: Story = {
  args: { ...Idle.args, error: 'The database is empty or not initialized.' },
  play: async ({ canvasElement }) =>
    expectOnlyError(canvasElement, 'The database is empty or not initialized.'),
};

/** Any other failure: the §8 fallback. */
export const LoginFailed: Story = {
  args: { ...Idle.args, error: 'Login failed' },
  play: async ({ canvasElement }) => expectOnlyError(canvasElement, 'Login failed'),
};

/** Asserts the amber notice shows exactly `message`, no error is shown, and signing in is still possible. */
async function expectOnlyNotice(canvasElement: HTMLElement, message: string) {
  const canvas = within(canvasElement);
  const notice = canvas.getByRole('status');
  await expect(notice.textContent).toBe(message);
  await expect(notice).toHaveAttribute('data-tone', 'warning');
  await expect(canvas.queryByRole('alert')).toBeNull();
  await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
}

/** On load, the database health check failed (§2 Login screen). */
export const DatabaseNotice: Story = {
  args: {
    ...Idle.args,
    notice:
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
  },
  play: async ({ canvasElement }) =>
    expectOnlyNotice(
      canvasElement,
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
    ),
};

/** The login answered DB_UNAVAILABLE: an amber notice that does not block (§8). */
export const DbUnavailableOnLogin: Story = {
  args: { ...Idle.args, notice: 'Backend database is currently unavailable.' },
  play: async ({ canvasElement }) =>
    expectOnlyNotice(canvasElement, 'Backend database is currently unavailable.'),
};

/** On load, the health check could not reach the backend (§2 Login screen). */
export const ReachabilityNotice: Story = {
  args: {
    ...Idle.args,
    notice: 'Backend reachability check failed. You can try logging in anyway.',
  },
  play: async ({ canvasElement }) =>
    expectOnlyNotice(
      canvasElement,
      'Backend reachability check failed. You can try logging in anyway.',
    ),
};

/** A notice from the health checks and an error from the login attempt, together. */
export const NoticeAndError: Story = {
  args: {
    ...Idle.args,
    notice:
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
    error: 'Incorrect password',
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
    );
    await expect(canvas.getByRole('alert').textContent).toBe('Incorrect password');
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

const secondFactor = {
  code: '',
  onCodeChange: fn(),
  useRecoveryCode: false,
  onToggleRecoveryCode: fn(),
  onBack: fn(),
};

/** Two-factor sign-in: the password was right, the form asks for the authenticator code. */
export const CodeStep: Story = {
  args: { password: 'correct horse battery staple', secondFactor },
  play: async ({ canvas, args }) => {
    await expect(
      canvas.getByText(
        'Enter the 6-digit code your authenticator app shows for admin@example.com.',
      ),
    ).toBeVisible();
    await expect(canvas.queryByLabelText('Password')).toBeNull();
    const code = canvas.getByLabelText('Authentication code');
    await expect(code).toHaveFocus();
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await userEvent.type(code, '4');
    await expect(args.secondFactor?.onCodeChange).toHaveBeenLastCalledWith('4');
    await userEvent.click(canvas.getByRole('button', { name: 'Verify' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(canvas.getByRole('button', { name: 'Use a recovery code' }));
    await expect(args.secondFactor?.onToggleRecoveryCode).toHaveBeenCalledTimes(1);
    await userEvent.click(canvas.getByRole('button', { name: 'Back' }));
    await expect(args.secondFactor?.onBack).toHaveBeenCalledTimes(1);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A wrong or reused code: the error is announced and the code step stays. */
export const CodeInvalid: Story = {
  args: {
    password: 'correct horse battery staple',
    secondFactor: { ...secondFactor, code: '123456' },
    error:
      'That code is not valid. Enter the current code from your authenticator app, or a recovery code.',
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('That code is not valid.');
    await expect(canvas.getByLabelText('Authentication code')).toHaveValue('123456');
  },
};

/** A recovery code instead of the app's code. */
export const RecoveryCodeStep: Story = {
  args: {
    password: 'correct horse battery staple',
    secondFactor: { ...secondFactor, useRecoveryCode: true, code: 'abcde-fghjk' },
  },
  play: async ({ canvas }) => {
    const code = canvas.getByLabelText('Recovery code');
    await expect(code).toHaveFocus();
    await expect(code).toHaveAttribute('inputmode', 'text');
    await expect(canvas.getByText(/Each code works once/)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Use an authentication code' })).toBeVisible();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Verifying the code: the button reads 'Signing in…' and is disabled. */
export const CodeVerifying: Story = {
  args: {
    password: 'correct horse battery staple',
    secondFactor: { ...secondFactor, code: '492039' },
    isSigningIn: true,
  },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Signing in…' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
  },
};
