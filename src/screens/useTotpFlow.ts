/**
 * The two-factor sign-in flow of the Settings screen: set-up → code → recovery codes
 * → on, and the turn-off dialog, over POST /auth/totp/setup, /enable and /disable. Whether it is
 * on comes from the who-am-I answer, which is refetched after every change (the header and the
 * enrolment gate read it too).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiErrorCode, disableTotp, enableTotp, startTotpSetup } from '../api/operators';
import { queryKeys } from '../api/queryKeys';
import { recoveryCodesText } from '../domain/account';
import { errorMessageOr } from '../domain/messages';
import type { TotpDisableState, TotpSectionProps, TotpState } from '../components/TotpSection';
import { downloadText } from './downloadText';

/** The set-up in progress, once the server has handed out a secret or the recovery codes. */
type Flow =
  | { step: 'setup'; secret: string; otpauthUrl: string }
  | { step: 'codes'; codes: readonly string[] };

/** The TotpSection props for an operator whose two-factor sign-in is `isEnabled` per who-am-I. */
export function useTotpFlow(isEnabled: boolean, email: string | null): TotpSectionProps {
  const queryClient = useQueryClient();
  const [flow, setFlow] = useState<Flow | null>(null);
  // What this page last changed, until who-am-I answers again with the same.
  const [changedTo, setChangedTo] = useState<boolean | null>(null);
  const [isDisableOpen, setIsDisableOpen] = useState(false);
  const refreshWhoami = () => queryClient.invalidateQueries({ queryKey: queryKeys.auth.whoami() });

  const setup = useMutation({
    mutationFn: startTotpSetup,
    onSuccess: (answer) => setFlow({ step: 'setup', ...answer }),
  });
  const enable = useMutation({
    mutationFn: enableTotp,
    onSuccess: (codes) => {
      setFlow({ step: 'codes', codes });
      setChangedTo(true);
      void refreshWhoami();
    },
  });
  const disable = useMutation({
    mutationFn: (values: { password: string; otp: string }) =>
      disableTotp(values.password, values.otp),
    onSuccess: () => {
      setIsDisableOpen(false);
      setChangedTo(false);
      void refreshWhoami();
    },
  });

  const isOn = changedTo ?? isEnabled;
  let state: TotpState;
  if (flow?.step === 'codes') state = { step: 'codes', codes: flow.codes };
  else if (flow?.step === 'setup') {
    state = {
      ...flow,
      isVerifying: enable.isPending,
      error: enable.isError ? errorMessageOr(enable.error, 'That code was not accepted.') : null,
    };
  } else if (setup.isPending) state = { step: 'starting' };
  else if (isOn) state = { step: 'on' };
  else {
    state = {
      step: 'off',
      error: setup.isError
        ? errorMessageOr(setup.error, 'Two-factor set-up could not start.')
        : null,
    };
  }

  let disableState: TotpDisableState = { status: 'closed' };
  if (isDisableOpen) {
    const code = apiErrorCode(disable.error);
    const message = disable.isError
      ? errorMessageOr(disable.error, 'Two-factor sign-in could not be turned off.')
      : null;
    disableState = {
      status: 'open',
      isSubmitting: disable.isPending,
      error:
        message === null
          ? null
          : {
              field:
                code === 'INCORRECT_PASSWORD'
                  ? 'password'
                  : code === 'OTP_INVALID'
                    ? 'otp'
                    : 'form',
              message,
            },
    };
  }

  return {
    state,
    disable: disableState,
    onSetUp: () => {
      enable.reset();
      setup.mutate();
    },
    onEnable: (otp) => enable.mutate(otp),
    onCancelSetup: () => {
      setFlow(null);
      enable.reset();
    },
    onDownloadCodes: () => {
      if (flow?.step !== 'codes') return;
      downloadText(
        'mg-admin-recovery-codes.txt',
        recoveryCodesText(flow.codes, email),
        'text/plain;charset=utf-8',
      );
    },
    onAcknowledgeCodes: () => setFlow(null),
    onDisableRequest: () => {
      disable.reset();
      setIsDisableOpen(true);
    },
    onDisable: (values) => disable.mutate(values),
    onDisableCancel: () => setIsDisableOpen(false),
  };
}
