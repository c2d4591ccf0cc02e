export {
  AccountPasswordForm,
  type AccountPasswordFormProps,
  type PasswordChangeState,
} from './AccountPasswordForm';
